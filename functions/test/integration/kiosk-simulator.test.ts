/**
 * The kiosk simulator (kiosk-simulator/simulator.ts, `npm run kiosk`) against the
 * real functions: a kiosk offline for days keeps its deposits in its journal across a
 * restart, reconnects, and uploads the backlog in batches through a network that loses
 * an answer after the service acted on it; the blind re-send is a replay, and the books
 * are exact. The upload logic alone (every fault, every status): unit/kiosk-simulator.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kioskDaysCollection } from '../../src/data/kioskDays';
import { transactionsCollection } from '../../src/data/transactions';
import { addToDay, type KioskDayFigures } from '../../src/domain/kioskDays';
import { utcDay } from '../../src/domain/rewards';
import { faultyTransport, type RetryPolicy } from '../../../kiosk-simulator/client';
import { JournalFile } from '../../../kiosk-simulator/journal';
import { SimulatedKiosk, type KioskEvent } from '../../../kiosk-simulator/simulator';
import * as wait from '../harness/wait';
import { db, resetEmulators } from './helpers';
import { API_URL } from './requests';
import { seedKioskWithKey, seedUser } from './seeds';

const DAY_MS = 86_400_000;
/** Quick blind retries: a lost answer is sent again 100 ms later. */
const RETRIES: RetryPolicy = { attempts: 10, pauseMs: () => 100, isAnswer: (status) => status < 500 && status !== 429 };

let dir: string;
beforeEach(async () => {
  await resetEmulators();
  dir = mkdtempSync(join(tmpdir(), 'kiosk-simulator-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function simulatedKiosk(journal: JournalFile, apiKey: string, transport = faultyTransport(() => undefined)) {
  const events: KioskEvent[] = [];
  const kiosk = new SimulatedKiosk({
    api: API_URL,
    apiKey,
    journal,
    policy: RETRIES,
    transport,
    onEvent: (event) => events.push(event),
  });
  return { kiosk, events, transport };
}

test('offline for days, restarted, reconnected through a network that loses an answer: every deposit one transaction, books exact', async () => {
  const { kioskId, apiKey } = await seedKioskWithKey();
  const users = [await seedUser(), await seedUser({ pushToken: 'sim-device' })];
  const path = join(dir, `${kioskId}.json`);

  // Offline: 130 deposits over the last 5 days, oldest first, journaled only.
  const firstRun = JournalFile.open(path, kioskId);
  const before = simulatedKiosk(firstRun, apiKey);
  before.kiosk.setConnected(false);
  const now = Date.now();
  for (let i = 0; i < 130; i++) {
    before.kiosk.record({
      userId: users[i % 2],
      plasticCount: i % 4,
      metalCount: i % 4 === 0 ? 1 + (i % 3) : i % 3,
      occurredAt: new Date(now - 5 * DAY_MS + (i * (5 * DAY_MS - 60_000)) / 130).toISOString(),
    });
  }
  expect(before.transport.injected).toEqual({ 'lose-answer': 0, drop: 0 });
  const deposits = [...before.kiosk.journal.pending];
  firstRun.close();

  // Restarted (the journal read back from its file), then connected: the answer to the
  // first batch is lost after the service recorded it, so the kiosk sends it again.
  const journal = JournalFile.open(path, kioskId);
  expect(journal.state.pending).toEqual(deposits);
  const batchUrl = `${API_URL}/kiosk/transactions/batch`;
  const after = simulatedKiosk(
    journal,
    apiKey,
    faultyTransport((url, n) => (url === batchUrl && n === 0 ? 'lose-answer' : undefined)),
  );
  const summary = await after.kiosk.flush();
  expect(after.transport.injected['lose-answer']).toBe(1);
  expect(summary).toEqual({
    uploads: 2,
    accepted: 30,
    replayed: 100,
    rejected: 0,
    kept: 0,
    overloaded: 0,
    points: expect.any(Number),
  });
  expect(journal.state.pending).toEqual([]);
  expect(journal.state.rejected).toEqual([]);

  // One item of the first batch sent again alone: the same transaction, a replay.
  const answers = new Map<string, { id: string; pointsEarned: number }>();
  for (const event of after.events)
    if (event.kind === 'answer' && event.answer.transaction)
      answers.set(event.deposit.idempotencyKey, event.answer.transaction);
  expect(answers.size).toBe(130);
  expect(await after.kiosk.sendSingle(deposits[7])).toBe('accepted');
  const single = after.events.at(-1);
  expect(single).toMatchObject({
    kind: 'answer',
    via: 'single',
    answer: { replayed: true, transaction: { id: answers.get(deposits[7].idempotencyKey)!.id } },
  });
  journal.close();

  // The books: one transaction per deposit, as deposited; users, kiosk and days equal the sums.
  const stored = await transactionsCollection().where('kioskId', '==', kioskId).get();
  expect(stored.size).toBe(130);
  const byKey = new Map(stored.docs.map((doc) => [doc.get('idempotencyKey'), doc]));
  const days = new Map<string, KioskDayFigures>();
  const pointsByUser = new Map<string | null, number>();
  for (const deposit of deposits) {
    const doc = byKey.get(deposit.idempotencyKey)!;
    expect(doc.id).toBe(answers.get(deposit.idempotencyKey)!.id);
    expect({
      userId: doc.get('userId'),
      plasticCount: doc.get('plasticCount'),
      metalCount: doc.get('metalCount'),
      occurredAt: doc.get('occurredAt').toDate().toISOString(),
    }).toEqual({
      userId: deposit.userId,
      plasticCount: deposit.plasticCount,
      metalCount: deposit.metalCount,
      occurredAt: deposit.occurredAt,
    });
    const points = doc.get('pointsEarned');
    pointsByUser.set(deposit.userId, (pointsByUser.get(deposit.userId) ?? 0) + points);
    addToDay(days, utcDay(new Date(deposit.occurredAt)), {
      transactions: 1,
      plasticCount: deposit.plasticCount,
      metalCount: deposit.metalCount,
      points,
    });
  }
  for (const userId of users) {
    const user = (await db().collection('users').doc(userId).get()).data()!;
    expect([user.currentPoints, user.totalPoints]).toEqual([pointsByUser.get(userId), pointsByUser.get(userId)]);
  }
  await wait.waitForEffects(
    transactionsCollection(),
    stored.docs.map((doc) => doc.id),
    { timeoutMs: 180_000 },
  );
  const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
  expect({ plastic: kiosk.plasticCount, metal: kiosk.metalCount }).toEqual({
    plastic: deposits.reduce((sum, d) => sum + d.plasticCount, 0),
    metal: deposits.reduce((sum, d) => sum + d.metalCount, 0),
  });
  const storedDays = await kioskDaysCollection().where('kioskId', '==', kioskId).get();
  expect(
    Object.fromEntries(
      storedDays.docs.map((doc) => {
        const { transactions, plasticCount, metalCount, points } = doc.data();
        return [doc.get('day'), { transactions, plasticCount, metalCount, points }];
      }),
    ),
  ).toEqual(Object.fromEntries(days));
});

test('a kiosk not available keeps its backlog (409 is no final answer) until it reports itself available again', async () => {
  const { kioskId, apiKey } = await seedKioskWithKey({ status: 'maintenance' });
  const userId = await seedUser();
  const journal = JournalFile.open(join(dir, `${kioskId}.json`), kioskId);
  const { kiosk } = simulatedKiosk(journal, apiKey);
  kiosk.setConnected(false);
  for (let i = 1; i <= 3; i++) kiosk.record({ userId, plasticCount: i, metalCount: 0 });
  kiosk.setConnected(true);

  expect(await kiosk.flush()).toMatchObject({ uploads: 1, accepted: 0, kept: 3 });
  expect(journal.state.pending).toHaveLength(3);
  expect(await kiosk.reportStatus({ status: 'available' })).toBe(200);
  expect(await kiosk.flush()).toMatchObject({ uploads: 1, accepted: 3, kept: 0, points: 60 });
  expect(journal.state.pending).toEqual([]);
  expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(60);
  journal.close();
});
