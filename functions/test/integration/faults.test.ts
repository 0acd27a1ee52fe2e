import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { call, db, describeTransactionEffects, resetEmulators, seedKioskWithKey, seedUser, waitFor } from './helpers';

beforeEach(resetEmulators);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a kiosk does: send, and on anything but a definite answer send the same request again. */
async function submitUntilAnswered(apiKey: string, body: Record<string, unknown>, idempotencyKey: string) {
  for (let attempt = 1; attempt <= 40; attempt++) {
    try {
      const res = await call('POST', '/kiosk/transaction', {
        body,
        headers: { 'x-api-key': apiKey, 'idempotency-key': idempotencyKey },
      });
      if (res.status === 200) return { attempts: attempt, body: res.body };
    } catch {
      // Connection reset while the functions reload: the kiosk retries.
    }
    await pause(250);
  }
  throw new Error(`request ${idempotencyKey} never answered`);
}

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
  expect(new Set(transactions.docs.map((doc) => doc.get('idempotencyKey')))).toEqual(new Set(requests.map((r) => r.key)));
  expect(new Set(answers.map((answer) => answer.body.transaction.id))).toEqual(new Set(transactions.docs.map((doc) => doc.id)));

  // Every trigger completes once the functions are back.
  await waitFor(
    'the effects of every transaction',
    async () => {
      const pending = (await db().collection('transactions').get()).docs.filter((doc) => !doc.get('effects.completedAt'));
      return pending.length === 0 ? true : undefined;
    },
    90_000,
    describeTransactionEffects,
  );
  const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
  const items = answers.reduce((sum, answer) => sum + answer.body.transaction.totalItems, 0);
  expect(kiosk.plasticCount + kiosk.metalCount).toBe(items);
});
