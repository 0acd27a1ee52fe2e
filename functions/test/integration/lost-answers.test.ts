import type { PushTransport } from '../../src/adapters/push';
import { findActiveKey, issueKey } from '../../src/data/kioskKeys';
import { upsertKiosk } from '../../src/data/kiosks';
import { upsertReward } from '../../src/data/rewards';
import { reserve, type Bucket } from '../../src/data/rateLimits';
import type { Deposit } from '../../src/domain/deposit';
import type { AwardOrigin } from '../../src/services/awardRecord';
import { awardTransactions } from '../../src/services/deposits';
import { applyTransactionEffects } from '../../src/services/transactionEffects';
import { db, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { seedKiosk, seedKioskWithKey, seedUser, seedUserTransaction, uniqueId } from './seeds';
import {
  GRPC,
  injectCommitFaults,
  withLostCommitAnswer,
  writesDocument,
  writesTo,
  type CommitRequest,
} from './commit-faults';

beforeEach(resetEmulators);

/**
 * A commit applied by Firestore whose answer is lost: the SDK sends it again, and
 * that second attempt fails on the first one's own writes. One submission must still
 * record exactly one transaction and award its points once.
 */
const deposit = (kioskId: string, userId: string) => ({
  kioskId,
  userId,
  plasticCount: 2,
  metalCount: 1,
  happenedAt: new Date(),
});

/** One deposit awarded alone, as POST /kiosk/transaction does: its outcome, or its error thrown. */
const awardTransaction = async (item: Deposit, origin: AwardOrigin & { idempotencyKey?: string }) => {
  const [settled] = await awardTransactions([{ ...item, idempotencyKey: origin.idempotencyKey }], origin);
  if ('error' in settled) throw settled.error;
  return settled.outcome;
};

describe('an award whose commit answer is lost', () => {
  const submit = async (idempotencyKey?: string) => {
    const { kioskId, keyId } = await seedKioskWithKey();
    const userId = await seedUser({ currentPoints: 100, totalPoints: 100 });
    const { result: outcome, injected } = await withLostCommitAnswer(db(), writesTo('transactions'), () =>
      awardTransaction(deposit(kioskId, userId), { apiKeyId: keyId, idempotencyKey, oldestAcceptedDay: '2000-01-01' }),
    );
    expect(injected).toBe(1);
    return { kioskId, userId, outcome };
  };

  const expectExactlyOnce = async (userId: string, outcome: Awaited<ReturnType<typeof awardTransaction>>) => {
    const transactions = await db().collection('transactions').where('userId', '==', userId).get();
    expect(transactions.docs.map((doc) => doc.id)).toEqual([outcome.result.transaction.id]);
    const user = (await db().collection('users').doc(userId).get()).data()!;
    expect(user.currentPoints).toBe(100 + 40);
    expect(user.totalPoints).toBe(100 + 40);
    expect(user.recycledCount).toBe(3);
    expect(outcome.result.transaction).toMatchObject({ pointsEarned: 40, newBalance: 140, totalItems: 3 });
    expect(outcome.replayed).toBe(false);
  };

  test('without an Idempotency-Key: one transaction, one award', async () => {
    const { userId, outcome } = await submit();
    await expectExactlyOnce(userId, outcome);
  });

  test('with an Idempotency-Key: one transaction, one award, and a repeat replays it', async () => {
    const { kioskId, userId, outcome } = await submit('lost-answer-1');
    await expectExactlyOnce(userId, outcome);
    const keyId = (await db().collection('transactions').doc(outcome.result.transaction.id).get()).get('apiKeyId');
    const repeat = await awardTransaction(deposit(kioskId, userId), {
      apiKeyId: keyId,
      idempotencyKey: 'lost-answer-1',
      oldestAcceptedDay: '2000-01-01',
    });
    expect(repeat).toEqual({ result: outcome.result, replayed: true });
  });

  test("a user's deposits of a batch in one commit: each recorded once, none answered as a replay", async () => {
    const { kioskId, keyId } = await seedKioskWithKey();
    const userId = await seedUser({ currentPoints: 100, totalPoints: 100 });
    const other = await seedUser();
    const items = [userId, other, userId, userId].map((owner, i) => ({
      ...deposit(kioskId, owner),
      idempotencyKey: `lost-batch-${i}`,
    }));
    const { result: settled, injected } = await withLostCommitAnswer(db(), writesDocument(`users/${userId}`), () =>
      awardTransactions(items, { apiKeyId: keyId, oldestAcceptedDay: '2000-01-01' }),
    );
    expect(injected).toBe(1);
    const outcomes = settled.map((each) => ('outcome' in each ? each.outcome : each.error));
    expect(outcomes.map((outcome) => (outcome as { replayed: boolean }).replayed)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    const mine = [0, 2, 3].map((i) => outcomes[i] as { result: { transaction: { id: string; newBalance: number } } });
    expect(mine.map((outcome) => outcome.result.transaction.newBalance)).toEqual([140, 180, 220]);
    const transactions = await db().collection('transactions').where('userId', '==', userId).get();
    expect(transactions.docs.map((doc) => doc.id).sort()).toEqual(mine.map((o) => o.result.transaction.id).sort());
    const ledger = await db().collection('ledger').where('userId', '==', userId).get();
    expect(ledger.docs.map((doc) => doc.get('balanceAfter')).sort()).toEqual([140, 180, 220]);
    expect((await db().collection('users').doc(userId).get()).data()).toMatchObject({
      currentPoints: 220,
      totalPoints: 220,
      recycledCount: 9,
    });
  });
});

describe('a keyless award whose commit outcome is unknown', () => {
  // The SDK resends a plain commit only on ABORTED, RESOURCE_EXHAUSTED and UNAVAILABLE;
  // after these the service itself holds a commit that may have landed.
  test.each([
    ['DEADLINE_EXCEEDED', GRPC.DEADLINE_EXCEEDED],
    ['INTERNAL', GRPC.INTERNAL],
    ['CANCELLED', GRPC.CANCELLED],
  ])('applied, then answered %s: answered 200 with the one transaction, awarded once', async (_, code) => {
    const { kioskId, keyId } = await seedKioskWithKey();
    const userId = await seedUser({ currentPoints: 100, totalPoints: 100 });
    const fault = injectCommitFaults(db(), writesTo('transactions'), 1, { appliedThen: code });
    try {
      const outcome = await awardTransaction(deposit(kioskId, userId), {
        apiKeyId: keyId,
        oldestAcceptedDay: '2000-01-01',
      });
      expect(fault.injected()).toBe(1);
      const transactions = await db().collection('transactions').where('userId', '==', userId).get();
      expect(transactions.docs.map((doc) => doc.id)).toEqual([outcome.result.transaction.id]);
      expect(outcome).toMatchObject({
        replayed: false,
        result: { transaction: { pointsEarned: 40, newBalance: 140 } },
      });
      expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(140);
    } finally {
      fault.restore();
    }
  });
});

describe('a create (POST /admin/kiosks, /admin/rewards) whose commit answer is lost', () => {
  // The transaction runs again and finds the document: still this call's create (201), not an update.
  const transactionWriting = (path: string) => (request: CommitRequest) =>
    request.transaction !== undefined && writesDocument(path)(request);

  test('a reward created: answered as created', async () => {
    const id = uniqueId('reward');
    const { result, injected } = await withLostCommitAnswer(db(), transactionWriting(`rewards/${id}`), () =>
      upsertReward({ id, name: 'Coffee', cost: 300, kind: 'voucher', stock: null }),
    );
    expect(injected).toBe(1);
    expect(result).toMatchObject({ created: true, reward: { id, cost: 300 } });
    // Another call that finds it is an update.
    expect((await upsertReward({ id, name: 'Coffee', cost: 400, kind: 'voucher' })).created).toBe(false);
  });

  test('a kiosk created: answered as created', async () => {
    const id = uniqueId('kiosk');
    const definition = { id, name: 'Central', address: 'Main St 1', location: { latitude: 52.5, longitude: 13.4 } };
    const { result, injected } = await withLostCommitAnswer(db(), transactionWriting(`kiosks/${id}`), () =>
      upsertKiosk(definition),
    );
    expect(injected).toBe(1);
    expect(result).toMatchObject({ created: true, kiosk: { id, name: 'Central' } });
    expect((await upsertKiosk(definition)).created).toBe(false);
  });
});

describe('the trigger claim whose commit answer is lost', () => {
  withoutBackgroundTriggers();

  test('the push is still sent, once, and the counters applied once', async () => {
    const { kioskId, transactionId } = await seedUserTransaction('phone-lost-claim');
    const sent: unknown[] = [];
    const recording: PushTransport = { send: async (message) => (sent.push(message), 'message-1') };
    // The claim's commit: the one Firestore transaction that writes the notification.
    const { injected } = await withLostCommitAnswer(
      db(),
      (request) => request.transaction !== undefined && writesTo('users')(request),
      () => applyTransactionEffects(transactionId, recording),
    );
    expect(injected).toBe(1);

    const effects = (await db().collection('transactions').doc(transactionId).get()).get('effects');
    expect(effects).toMatchObject({
      kioskCounted: true,
      notificationId: transactionId,
      push: { status: 'sent', messageId: 'message-1' },
    });
    expect(sent).toHaveLength(1);
    const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
    expect([kiosk.plasticCount, kiosk.metalCount]).toEqual([2, 1]);
  });
});

describe('a rate-limit reservation whose commit answer is lost', () => {
  test('takes one slot, not two', async () => {
    const bucket: Bucket = { scope: 'lost-answer-test', key: uniqueId('client'), limit: 5, windowMs: 60_000 };
    const { result: reservation, injected } = await withLostCommitAnswer(db(), writesTo('rateLimits'), () =>
      reserve([bucket]),
    );
    expect(reservation).toMatchObject({ reserved: true });
    expect(injected).toBe(1);
    const buckets = await db().collection('rateLimits').where('scope', '==', bucket.scope).get();
    expect(buckets.docs.map((doc) => doc.get('hits').length)).toEqual([1]);
  });
});

describe('a document created under its own random id whose answer is lost', () => {
  test('issuing a kiosk key succeeds and stores the key once', async () => {
    const kioskId = await seedKiosk();
    const { result: issued, injected } = await withLostCommitAnswer(db(), writesTo('kioskKeys'), () =>
      issueKey(kioskId, 'front panel'),
    );
    expect(injected).toBe(1);
    expect(await findActiveKey(issued.apiKey)).toMatchObject({ kioskId, keyId: issued.keyId });
    expect((await db().collection('kioskKeys').where('kioskId', '==', kioskId).get()).size).toBe(1);
  });
});
