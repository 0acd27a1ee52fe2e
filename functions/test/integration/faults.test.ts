import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { transactionsCollection } from '../../src/data/transactions';
import { submitAsKiosk, type RetryPolicy } from '../../../kiosk-simulator/client';
import { waitForEffects } from '../harness/wait';
import { db, resetEmulators } from './helpers';
import { API_URL } from './requests';
import { seedKioskWithKey, seedUser } from './seeds';

beforeEach(resetEmulators);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * While the functions reload, the emulator may answer anything: like a kiosk, send the
 * same request again, here until it is accepted (250 ms apart, 40 times at most).
 */
const UNTIL_ACCEPTED: RetryPolicy = { attempts: 40, pauseMs: () => 250, isAnswer: (status) => status === 200 };
const submitUntilAnswered = (apiKey: string, body: Record<string, unknown>, idempotencyKey: string) =>
  submitAsKiosk(API_URL, { apiKey, body, idempotencyKey }, UNTIL_ACCEPTED);

test('the functions reloading mid-burst while kiosks retry with their keys: no award lost, none doubled', async () => {
  const { kioskId, apiKey } = await seedKioskWithKey();
  const userId = await seedUser();
  const requests = Array.from({ length: 20 }, (_, i) => ({
    key: `restart-${i}`,
    body: { kioskId, userId, plasticCount: 1 + (i % 3), metalCount: i % 2 },
  }));

  const burst = Promise.all(requests.map(({ key, body }) => submitUntilAnswered(apiKey, body, key)));
  // Touching the entry point makes the functions emulator reload every function,
  // dropping the workers that are serving this burst.
  const entryPoint = join(__dirname, '..', '..', 'lib', 'index.js');
  await pause(300);
  await utimes(entryPoint, new Date(), new Date());
  await pause(1500);
  await utimes(entryPoint, new Date(), new Date());
  const answers = await burst;

  const expectedPoints = answers.reduce((sum, answer) => sum + answer.body.transaction.pointsEarned, 0);
  const user = (await db().collection('users').doc(userId).get()).data()!;
  expect(user.currentPoints).toBe(expectedPoints);
  const transactions = await db().collection('transactions').get();
  expect(transactions.size).toBe(requests.length);
  expect(new Set(transactions.docs.map((doc) => doc.get('idempotencyKey')))).toEqual(
    new Set(requests.map((r) => r.key)),
  );
  expect(new Set(answers.map((answer) => answer.body.transaction.id))).toEqual(
    new Set(transactions.docs.map((doc) => doc.id)),
  );

  // Every trigger completes once the functions are back.
  await waitForEffects(transactionsCollection(), 'all', { timeoutMs: 90_000 });
  const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
  const items = answers.reduce((sum, answer) => sum + answer.body.transaction.totalItems, 0);
  expect(kiosk.plasticCount + kiosk.metalCount).toBe(items);
});
