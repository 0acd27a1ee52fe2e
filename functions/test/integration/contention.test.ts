import { contention } from '../../src/adapters/firestore';
import { upsertReward } from '../../src/data/rewards';
import { ApiError } from '../../src/errors';
import { errorAnswerOf, type ErrorAnswer } from '../../src/http/errorAnswers';
import { keyedTransactionId } from '../../src/domain/idempotency';
import { adjustBalance } from '../../src/services/adjustBalance';
import { awardTransactions } from '../../src/services/deposits';
import { redeemReward } from '../../src/services/redemptions';
import { GRPC, injectCommitFaults, writesDocument, writesTo, type CommitRequest } from './commit-faults';
import { closeClient, send, startFuzzServer, type FuzzServer } from './fuzz-server';
import { db, resetEmulators } from './helpers';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

/*
 * Writes that meet contention, around the real emulator: a change that gets in between
 * a read and its commit makes the write read again; contention that outlasts the
 * deadline is answered 503 `overloaded` with Retry-After, nothing written.
 */

beforeEach(resetEmulators);

/** Every commit that `matches` fails with `code` (before reaching the emulator) while `act` runs. */
async function withEveryCommitFailing<T>(
  matches: (request: CommitRequest) => boolean,
  code: number,
  act: () => Promise<T>,
) {
  const fault = injectCommitFaults(db(), matches, Number.MAX_SAFE_INTEGER, code);
  try {
    return { result: await act(), injected: fault.injected() };
  } finally {
    fault.restore();
  }
}

/** A redemption's error as the API answers it, or a failure saying it succeeded. */
const errorOf = async (act: () => Promise<unknown>): Promise<ErrorAnswer> => {
  const outcome = await act().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome) || !(outcome.error instanceof ApiError)) {
    throw new Error(`expected an ApiError, got ${JSON.stringify(outcome)}`);
  }
  return errorAnswerOf(outcome.error);
};

describe('a redemption of an unlimited reward changed between its read and its commit', () => {
  const setUp = async () => {
    const rewardId = uniqueId('reward');
    await upsertReward({ id: rewardId, name: 'Coffee', cost: 300, kind: 'voucher', stock: null });
    const userId = await seedUser({ currentPoints: 1000, totalPoints: 1000 });
    return { rewardId, userId, rewardRef: db().collection('rewards').doc(rewardId) };
  };
  /** Runs `redeem` while `change` gets in just before the redemption's first commit. */
  const interleaved = async <T>(change: () => Promise<unknown>, redeem: () => Promise<T>) => {
    const fault = injectCommitFaults(db(), writesTo('redemptions'), 1, { before: change });
    try {
      return await redeem();
    } finally {
      expect(fault.injected()).toBe(1);
      fault.restore();
    }
  };

  test('deactivated in between: the redemption reads again and is refused, nothing spent', async () => {
    const { rewardId, userId, rewardRef } = await setUp();
    const error = await errorOf(() =>
      interleaved(
        () => rewardRef.update({ active: false }),
        () => redeemReward(userId, rewardId, 'spend-1'),
      ),
    );
    expect(error).toMatchObject({ status: 409, code: 'reward-inactive' });
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(1000);
    expect((await db().collection('redemptions').get()).size).toBe(0);
  });

  test('dearer in between: the redemption reads again and costs the new price', async () => {
    const { rewardId, userId, rewardRef } = await setUp();
    const outcome = await interleaved(
      () => rewardRef.update({ cost: 500 }),
      () => redeemReward(userId, rewardId, 'spend-2'),
    );
    expect(outcome).toMatchObject({ newBalance: 500, redemption: { cost: 500 } });
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(500);
  });
});

test('a redemption leaves an unlimited reward as it was (same update time), so redemptions of it do not contend', async () => {
  const rewardId = uniqueId('reward');
  await upsertReward({ id: rewardId, name: 'Coffee', cost: 300, kind: 'voucher', stock: null });
  const userId = await seedUser({ currentPoints: 1000, totalPoints: 1000 });
  const rewardRef = db().collection('rewards').doc(rewardId);
  const before = await rewardRef.get();
  await redeemReward(userId, rewardId, 'spend-1');
  const after = await rewardRef.get();
  expect(after.data()).toEqual(before.data());
  expect(after.updateTime!.isEqual(before.updateTime!)).toBe(true);
});

describe('contention past the deadline: 503 overloaded with Retry-After, nothing written', () => {
  const configured = contention.deadlineMs;
  beforeEach(() => (contention.deadlineMs = 1_000));
  afterEach(() => (contention.deadlineMs = configured));

  let server: FuzzServer;
  beforeAll(async () => (server = await startFuzzServer()));
  afterAll(async () => {
    await server.close();
    closeClient();
  });
  const post = (path: string, apiKey: string, body: unknown, headers: Record<string, string> = {}) =>
    send(server.port, {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...headers },
      body: Buffer.from(JSON.stringify(body)),
    });

  // Every commit loses its race (FAILED_PRECONDITION), as under a burst no commit ever wins.
  const FAILED_PRECONDITION = 9;

  test('POST /kiosk/transaction whose every commit loses the race: 503 overloaded, Retry-After', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser({ currentPoints: 100, totalPoints: 100 });
    const { result: res, injected } = await withEveryCommitFailing(writesTo('transactions'), FAILED_PRECONDITION, () =>
      post(
        '/kiosk/transaction',
        apiKey,
        { kioskId, userId, plasticCount: 2, metalCount: 1 },
        { 'idempotency-key': 'r-1' },
      ),
    );
    expect(injected).toBeGreaterThan(1);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(JSON.parse(res.text)).toMatchObject({ code: 'overloaded' });
    expect((await db().collection('transactions').get()).size).toBe(0);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(100);
  });

  test('a batch: the contended item is answered 503 overloaded, the other awarded', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const [busy, calm] = [await seedUser(), await seedUser()];
    const item = (userId: string, idempotencyKey: string) => ({
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 0,
      idempotencyKey,
    });
    const { result: res } = await withEveryCommitFailing(writesDocument(`users/${busy}`), FAILED_PRECONDITION, () =>
      post('/kiosk/transactions/batch', apiKey, { transactions: [item(busy, 'b-1'), item(calm, 'b-2')] }),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).results).toMatchObject([
      { idempotencyKey: 'b-1', status: 503, code: 'overloaded' },
      { idempotencyKey: 'b-2', status: 200, replayed: false },
    ]);
    // When to send the overloaded item again, as the single endpoint would have said it.
    expect(res.headers['retry-after']).toBe('5');
    const recorded = await db().collection('transactions').get();
    expect(recorded.docs.map((doc) => doc.get('userId'))).toEqual([calm]);
  });

  test("an award that waited in its user's queue past the deadline is given up before it is tried", async () => {
    const { kioskId, keyId } = await seedKioskWithKey();
    const userId = await seedUser();
    const award = (idempotencyKey: string) =>
      awardTransactions([{ kioskId, userId, plasticCount: 1, metalCount: 0, happenedAt: new Date(), idempotencyKey }], {
        apiKeyId: keyId,
        oldestAcceptedDay: '2000-01-01',
      });
    // The first award's one commit takes longer than the deadline and then loses its race, so it is
    // given up; the second, queued behind it all that time, would land at once if it were tried.
    // The second is sent only once the first is committing, so it is queued behind it whatever the timing.
    const first = writesDocument(`transactions/${keyedTransactionId(kioskId, 'queued-1')}`);
    let firstCommitting: () => void = () => undefined;
    const firstIsCommitting = new Promise<void>((resolve) => (firstCommitting = resolve));
    const slowLostRace = {
      before: async () => {
        firstCommitting();
        await new Promise((resolve) => setTimeout(resolve, contention.deadlineMs * 1.5));
        throw Object.assign(new Error('lost its race, slowly (injected by the test)'), { code: FAILED_PRECONDITION });
      },
    };
    const fault = injectCommitFaults(db(), first, 1, slowLostRace);
    const settled = await Promise.all([award('queued-1'), firstIsCommitting.then(() => award('queued-2'))]).finally(
      () => fault.restore(),
    );
    expect(fault.injected()).toBe(1);
    const errors = settled.map(([each]) => ('error' in each ? errorAnswerOf(each.error as ApiError) : each.outcome));
    for (const error of errors) expect(error).toMatchObject({ status: 503, code: 'overloaded' });
    expect((await db().collection('transactions').get()).size).toBe(0);
  });

  test('a redemption and an adjustment (optimistic commits): 503 overloaded, nothing spent', async () => {
    const rewardId = uniqueId('reward');
    await upsertReward({ id: rewardId, name: 'Coffee', cost: 300, kind: 'voucher', stock: null });
    const userId = await seedUser({ currentPoints: 1000, totalPoints: 1000 });
    const { result: errors } = await withEveryCommitFailing(
      writesDocument(`users/${userId}`),
      FAILED_PRECONDITION,
      async () => [
        await errorOf(() => redeemReward(userId, rewardId, 'spend-1')),
        await errorOf(() =>
          adjustBalance(userId, { points: 50, reason: 'goodwill', by: 'admin', idempotencyKey: 'adj-1' }),
        ),
      ],
    );
    for (const error of errors) {
      expect(error).toMatchObject({ status: 503, code: 'overloaded', headers: { 'Retry-After': '5' } });
    }
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(1000);
    expect((await db().collection('ledger').get()).size).toBe(0);
  });

  test('a Firestore transaction aborted on every attempt: 503 overloaded, nothing written', async () => {
    const rewardId = uniqueId('reward');
    const { result: error } = await withEveryCommitFailing(
      (request) => request.transaction !== undefined && writesTo('rewards')(request),
      GRPC.ABORTED,
      () => errorOf(() => upsertReward({ id: rewardId, name: 'Coffee', cost: 300, kind: 'voucher', stock: null })),
    );
    expect(error).toMatchObject({ status: 503, code: 'overloaded', headers: { 'Retry-After': '5' } });
    expect((await db().collection('rewards').doc(rewardId).get()).exists).toBe(false);
  });
});
