/**
 * A kiosk's hot documents (its counters and its daily figures) under a backlog upload
 * (issue 11, "Hot documents"): no transaction writes them on its own; folds count a
 * kiosk's transactions in bulk, at most once a second, under the kiosk's lease
 * (services/kioskFold.ts). And the lease's failure cases, the safety net, a lost answer.
 */
import { Timestamp } from 'firebase-admin/firestore';
import { diagnosticsCollection } from '../../src/adapters/firestore';
import type { PushTransport } from '../../src/adapters/push';
import { kioskDaysCollection } from '../../src/data/kioskDays';
import { kioskFoldsCollection } from '../../src/data/kioskFolds';
import { transactionsCollection } from '../../src/data/transactions';
import { addToDay, type KioskDayFigures } from '../../src/domain/kioskDays';
import { utcDay } from '../../src/domain/rewards';
import { foldStaleKioskTransactions } from '../../src/services/kioskFold';
import { applyTransactionEffects } from '../../src/services/transactionEffects';
import * as wait from '../harness/wait';
import { withLostCommitAnswer, writesTo } from './commit-faults';
import { db, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { seedKiosk, seedTransaction, seedUser } from './seeds';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

beforeEach(resetEmulators);

const kioskCounters = async (kioskId: string) => {
  const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
  return { plasticCount: kiosk.plasticCount, metalCount: kiosk.metalCount };
};

/** Every kioskDays document of the kiosk, by day, without the bookkeeping fields. */
async function storedDays(kioskId: string): Promise<Record<string, KioskDayFigures>> {
  const days = await kioskDaysCollection().where('kioskId', '==', kioskId).get();
  return Object.fromEntries(
    days.docs.map((doc) => {
      const { transactions, plasticCount, metalCount, points } = doc.data();
      return [doc.get('day'), { transactions, plasticCount, metalCount, points }];
    }),
  );
}

const diagnostics = async (event: string) =>
  (await diagnosticsCollection().where('event', '==', event).get()).docs.map((doc) => doc.data());

describe('a kiosk uploading a backlog of 100 transactions at once', () => {
  test('every effect completes with no contention retry; counters and days exact; the hot documents written a few times, at most once a second', async () => {
    const kioskId = await seedKiosk();
    const users = await Promise.all([1, 2, 3, 4].map(() => seedUser()));
    const now = Date.now();
    // What a kiosk offline for days uploads: deposits of the last four days, all recorded within a second.
    const backlog = Array.from({ length: 100 }, (_, i) => ({
      plasticCount: i % 7,
      metalCount: (i * 3) % 5,
      occurredAt: new Date(now - (i % 4) * DAY_MS - i * MINUTE_MS),
    }));
    const recorded = await Promise.all(backlog.map((deposit, i) => seedTransaction(kioskId, users[i % 4], deposit)));

    await wait.waitForEffects(
      transactionsCollection(),
      recorded.map(({ transactionId }) => transactionId),
      { timeoutMs: 120_000 },
    );

    const expectedDays = new Map<string, KioskDayFigures>();
    recorded.forEach(({ recorded: { plasticCount, metalCount, pointsEarned } }, i) =>
      addToDay(expectedDays, utcDay(backlog[i].occurredAt), {
        transactions: 1,
        plasticCount,
        metalCount,
        points: pointsEarned,
      }),
    );
    expect(await kioskCounters(kioskId)).toEqual({
      plasticCount: backlog.reduce((sum, deposit) => sum + deposit.plasticCount, 0),
      metalCount: backlog.reduce((sum, deposit) => sum + deposit.metalCount, 0),
    });
    expect(await storedDays(kioskId)).toEqual(Object.fromEntries(expectedDays));

    // Every Firestore transaction the functions retried (contention or otherwise) is recorded: none.
    expect(await diagnostics('transaction_retried')).toEqual([]);
    // Each fold writes the kiosk document once and each day document it names once.
    const folds = (await diagnostics('kiosk_fold_committed'))
      .filter((fold) => fold.kioskId === kioskId)
      .sort((a, b) => a.at.toMillis() - b.at.toMillis());
    expect(folds.reduce((sum, fold) => sum + fold.transactions, 0)).toBe(100);
    expect(folds.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < folds.length; i++) {
      expect(folds[i].at.toMillis() - folds[i - 1].at.toMillis()).toBeGreaterThanOrEqual(1000);
    }
  });
});

describe('the fold, driven by hand', () => {
  withoutBackgroundTriggers();

  const quiet: PushTransport = { send: async () => 'message-1' };

  async function oneTransaction() {
    const kioskId = await seedKiosk();
    const userId = await seedUser();
    const { transactionId } = await seedTransaction(kioskId, userId);
    return { kioskId, transactionId };
  }

  const holdLease = (kioskId: string, heldUntil: number) =>
    kioskFoldsCollection()
      .doc(kioskId)
      .set({ holder: 'a-run-that-died', heldUntil: Timestamp.fromMillis(heldUntil) });

  test('a lease whose holder died keeps the kiosk waiting until it runs out, then the transaction is counted once', async () => {
    const { kioskId, transactionId } = await oneTransaction();
    const heldUntil = Date.now() + 2_000;
    await holdLease(kioskId, heldUntil);
    await applyTransactionEffects(transactionId, quiet);
    expect(Date.now()).toBeGreaterThanOrEqual(heldUntil);
    expect(await kioskCounters(kioskId)).toEqual({ plasticCount: 2, metalCount: 1 });
    expect((await kioskFoldsCollection().doc(kioskId).get()).get('holder')).toBeNull();
  });

  test('a backlog its triggers reach late (an outage) is folded in one go, not one transaction a second', async () => {
    const kioskId = await seedKiosk();
    const userId = await seedUser();
    const uploadedAt = Date.now() - 10 * MINUTE_MS;
    const backlog = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        seedTransaction(kioskId, userId, { createdAt: new Date(uploadedAt + i * 100), plasticCount: 1 + (i % 3) }),
      ),
    );
    await applyTransactionEffects(backlog[0].transactionId, quiet);
    expect(await kioskCounters(kioskId)).toEqual({
      plasticCount: backlog.reduce((sum, { recorded }) => sum + recorded.plasticCount, 0),
      metalCount: 30,
    });
    // Triggers are off: the one run counted its 29 siblings too.
    const counted = await transactionsCollection().where('kioskId', '==', kioskId).get();
    expect(counted.docs.filter((doc) => doc.get('effects.kioskCounted') === true)).toHaveLength(30);
  });

  test('a lease that ran out is taken over at once', async () => {
    const { kioskId, transactionId } = await oneTransaction();
    await holdLease(kioskId, Date.now() - 1);
    await applyTransactionEffects(transactionId, quiet);
    expect(await kioskCounters(kioskId)).toEqual({ plasticCount: 2, metalCount: 1 });
  });

  test('a fold whose commit answer is lost counts its transactions once', async () => {
    const { kioskId, transactionId } = await oneTransaction();
    const { injected } = await withLostCommitAnswer(
      db(),
      (request) => request.transaction !== undefined && writesTo('kioskDays')(request),
      () => applyTransactionEffects(transactionId, quiet),
    );
    expect(injected).toBe(1);
    expect(await kioskCounters(kioskId)).toEqual({ plasticCount: 2, metalCount: 1 });
    expect(await storedDays(kioskId)).toEqual({
      [utcDay(new Date())]: { transactions: 1, plasticCount: 2, metalCount: 1, points: 40 },
    });
  });

  test('the safety net counts what is still not counted 2 minutes after it was recorded, once', async () => {
    const [stuck, alsoStuck, fresh, old] = await Promise.all([1, 2, 3, 4].map(() => seedKiosk()));
    const userId = await seedUser();
    const now = Date.now();
    const occurredAt = new Date(now - 2 * DAY_MS);
    await Promise.all([
      seedTransaction(stuck, userId, { occurredAt, createdAt: new Date(now - 5 * MINUTE_MS) }),
      seedTransaction(stuck, userId, { occurredAt, createdAt: new Date(now - 6 * MINUTE_MS), plasticCount: 4 }),
      seedTransaction(alsoStuck, userId, { createdAt: new Date(now - 3 * MINUTE_MS) }),
      // Its trigger may well be running: left to it.
      seedTransaction(fresh, userId, { createdAt: new Date(now - 30_000) }),
      // Beyond the sweep's look back.
      seedTransaction(old, userId, { createdAt: new Date(now - 60 * MINUTE_MS) }),
    ]);
    // A kiosk whose lease is held is left to its holder.
    const held = await seedKiosk();
    await seedTransaction(held, userId, { createdAt: new Date(now - 5 * MINUTE_MS) });
    await holdLease(held, now + 60_000);

    expect(await foldStaleKioskTransactions()).toEqual({ kiosks: 2, transactions: 3 });
    expect(await foldStaleKioskTransactions()).toEqual({ kiosks: 0, transactions: 0 });

    expect(await kioskCounters(stuck)).toEqual({ plasticCount: 6, metalCount: 2 });
    expect(await storedDays(stuck)).toEqual({
      [utcDay(occurredAt)]: { transactions: 2, plasticCount: 6, metalCount: 2, points: 100 },
    });
    expect(await kioskCounters(alsoStuck)).toEqual({ plasticCount: 2, metalCount: 1 });
    for (const untouched of [fresh, old, held]) {
      expect(await kioskCounters(untouched)).toEqual({ plasticCount: 0, metalCount: 0 });
      expect(await storedDays(untouched)).toEqual({});
    }
    const transactions = await transactionsCollection().where('kioskId', '==', stuck).get();
    expect(transactions.docs.map((doc) => doc.get('effects'))).toEqual([
      { kioskCounted: true, kioskDay: utcDay(occurredAt) },
      { kioskCounted: true, kioskDay: utcDay(occurredAt) },
    ]);
  });
});
