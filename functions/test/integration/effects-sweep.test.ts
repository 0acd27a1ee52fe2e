import { Timestamp } from 'firebase-admin/firestore';
import type { CloudFunction } from 'firebase-functions/v1';
import { alertsCollection, newAlert } from '../../src/data/alerts';
import { newNotification, notificationsOf as inboxOf } from '../../src/data/notifications';
import { transactionNotification } from '../../src/domain/messages';
import { effectsSweep, redemptionEffects, transactionEffects, alertPush } from '../../src/index';
import { eraseUser } from '../../src/services/erasure';
import { openBalance } from '../../src/services/ledgerBooks';
import { runEffectsSweep } from '../../src/triggers/effectsSweep';
import { admin } from './cli-runner';
import { db, functionsTestEnv, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

const testEnv = functionsTestEnv();

beforeEach(resetEmulators);

// firebase-functions-test runs a 2nd gen scheduled function as its own scheduled
// wrapper, but its types list no overload for one.
const scheduledSweep = testEnv.wrap(
  effectsSweep as unknown as CloudFunction<unknown>,
) as unknown as () => Promise<void>;

/** As if recorded `minutes` ago: past the sweep's minimum age (5 minutes). */
const recordedAgo = (path: string, field: string, minutes = 10) =>
  db()
    .doc(path)
    .update({ [field]: Timestamp.fromMillis(Date.now() - minutes * 60_000) });

/** The trigger's own delivery of the document at `path`, late (what firebase-functions-test hands the handler). */
async function lateTrigger(fn: unknown, param: string, path: string): Promise<void> {
  const id = path.split('/')[1];
  const snapshot = await db().doc(path).get();
  const wrapped = testEnv.wrap(fn as CloudFunction<never>) as unknown as (event: unknown) => Promise<void>;
  await wrapped({
    id: `late-${id}`,
    params: { [param]: id },
    data: testEnv.firestore.makeDocumentSnapshot(snapshot.data()!, path),
  });
}

const pushesTo = async (token: string) =>
  (await db().collection('pushOutbox').where('message.token', '==', token).get()).size;
const notificationsOf = async (userId: string) => (await db().collection(`users/${userId}/notifications`).get()).size;

describe('the effects sweep completes what no trigger did, exactly once', () => {
  withoutBackgroundTriggers();

  /** A deposit recorded through the API while no trigger runs (a lost delivery), recorded 10 minutes ago. */
  async function depositNoTriggerRan() {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const token = `phone-${kioskId}`;
    const userId = await seedUser({ pushToken: token });
    const res = await call('POST', '/kiosk/transaction', {
      body: { kioskId, userId, plasticCount: 2, metalCount: 1 },
      headers: { 'x-api-key': apiKey },
    });
    expect(res.status).toBe(200);
    const transactionId: string = res.body.transaction.id;
    await recordedAgo(`transactions/${transactionId}`, 'createdAt');
    return { kioskId, userId, token, transactionId };
  }

  async function expectToldAndCountedOnce({ kioskId, userId, token, transactionId }: Deposit) {
    const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
    const transaction = (await db().collection('transactions').doc(transactionId).get()).data()!;
    expect({
      counted: [kiosk.plasticCount, kiosk.metalCount],
      notifications: await notificationsOf(userId),
      pushes: await pushesTo(token),
      effects: transaction.effects,
      pending: transaction.effectsPending,
    }).toEqual({
      counted: [2, 1],
      notifications: 1,
      pushes: 1,
      effects: expect.objectContaining({ kioskCounted: true, notificationId: transactionId, push: expect.anything() }),
      pending: undefined,
    });
    expect(transaction.effects.completedAt).toBeInstanceOf(Timestamp);
  }
  type Deposit = Awaited<ReturnType<typeof depositNoTriggerRan>>;

  test('a transaction: counters, notification and push, once; a second sweep finds nothing', async () => {
    const deposit = await depositNoTriggerRan();
    await scheduledSweep();
    await expectToldAndCountedOnce(deposit);
    expect((await db().collection('transactions').doc(deposit.transactionId).get()).get('effects.push.status')).toBe(
      'sent',
    );

    // The CLI runs the same sweep: nothing is pending any more.
    const again = JSON.parse(await admin('effects:sweep'));
    expect(again.transactions).toEqual({ pending: 0, completed: 0, failed: 0 });
    await expectToldAndCountedOnce(deposit);
  });

  test('sweeps at once and a late trigger racing them: still once', async () => {
    const deposits = [await depositNoTriggerRan(), await depositNoTriggerRan()];
    await Promise.all([
      scheduledSweep(),
      admin('effects:sweep', '--min-age', '60'),
      ...deposits.map(({ transactionId }) =>
        lateTrigger(transactionEffects, 'transactionId', `transactions/${transactionId}`),
      ),
      scheduledSweep(),
    ]);
    for (const deposit of deposits) await expectToldAndCountedOnce(deposit);
  });

  test('not yet: what was recorded within the minimum age is left to its trigger', async () => {
    const deposit = await depositNoTriggerRan();
    await recordedAgo(`transactions/${deposit.transactionId}`, 'createdAt', 1);
    await scheduledSweep();
    const transaction = (await db().collection('transactions').doc(deposit.transactionId).get()).data()!;
    expect({ effects: transaction.effects, pending: transaction.effectsPending }).toEqual({
      effects: undefined,
      pending: true,
    });
  });

  test('a redemption and an alert: told once, also when a late trigger races the sweep', async () => {
    const token = 'phone-redeemer';
    const userId = await seedUser({ currentPoints: 1000, totalPoints: 1000, pushToken: token });
    await openBalance(userId, 'test');
    const headers = await adminHeaders();
    const reward = { id: 'coffee', name: 'Coffee', cost: 300, kind: 'voucher', stock: 5 };
    expect((await call('POST', '/admin/rewards', { body: reward, headers })).status).toBe(201);
    const redeemed = await call('POST', `/user/${userId}/redemptions`, {
      body: { rewardId: 'coffee' },
      headers: { ...(await bearerFor(userId)), 'idempotency-key': 'swept' },
    });
    expect(redeemed.status).toBe(201);
    const redemptionId: string = redeemed.body.redemption.id;
    await recordedAgo(`redemptions/${redemptionId}`, 'createdAt');
    const alertRef = alertsCollection().doc();
    await alertRef.create(newAlert('kiosk-a', 'silent', 'unseen for 20 minutes', new Date(Date.now() - 10 * 60_000)));

    await Promise.all([
      scheduledSweep(),
      lateTrigger(redemptionEffects, 'redemptionId', `redemptions/${redemptionId}`),
      lateTrigger(alertPush, 'alertId', `alerts/${alertRef.id}`),
      scheduledSweep(),
    ]);

    const redemption = (await db().collection('redemptions').doc(redemptionId).get()).data()!;
    const alert = (await alertRef.get()).data()!;
    expect({
      notifications: await notificationsOf(userId),
      userPushes: await pushesTo(token),
      operatorPushes: (await db().collection('pushOutbox').where('message.topic', '==', 'operators').get()).size,
      redemptionPending: redemption.effectsPending,
      alertPending: alert.effectsPending,
    }).toEqual({
      notifications: 1,
      userPushes: 1,
      operatorPushes: 1,
      redemptionPending: undefined,
      alertPending: undefined,
    });
    expect(redemption.effects.completedAt).toBeInstanceOf(Timestamp);
    expect(alert.push.status).not.toBe('sending');
  });
});

describe('the effects sweep finishes an erasure (contract §15: no notification survives it)', () => {
  /**
   * A user with 40 points, erased; then the notification of a deposit written as a
   * trigger that read the user just before the erasure's commit writes it, after the
   * erasure's own delete of the inbox.
   */
  async function erasedThenToldLate() {
    const userId = await seedUser({ currentPoints: 40, totalPoints: 40 });
    await openBalance(userId, 'test');
    await eraseUser(userId, 'test');
    const transactionId = uniqueId('tx');
    const content = transactionNotification({
      transactionId,
      kioskId: 'kiosk-a',
      kioskName: 'Kiosk A',
      totalItems: 3,
      pointsEarned: 40,
      newBalance: 40,
    });
    await inboxOf(userId)
      .doc(transactionId)
      .set(newNotification({ type: 'transaction', ...content }));
    return userId;
  }

  const erasureOf = async (userId: string) => ({
    notifications: await notificationsOf(userId),
    pending: (await db().doc(`users/${userId}`).get()).get('effectsPending'),
  });

  test("the late notification is deleted and the erasure's mark cleared, once; a second sweep does nothing", async () => {
    const userId = await erasedThenToldLate();
    await recordedAgo(`users/${userId}`, 'erasedAt');

    // Two sweeps at once: one of them finishes it.
    const racing = await Promise.all([runEffectsSweep(), runEffectsSweep()]);
    expect(racing.map(({ erasures }) => [erasures.completed, erasures.failed]).sort()).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(await erasureOf(userId)).toEqual({ notifications: 0, pending: undefined });
    expect(await admin('audit')).toMatch(/^audit: OK/);

    expect(JSON.parse(await admin('effects:sweep')).erasures).toEqual({ pending: 0, completed: 0, failed: 0 });
    expect(await erasureOf(userId)).toEqual({ notifications: 0, pending: undefined });
  });

  test('not yet: an erasure within the minimum age is left as it is (a trigger may still be writing)', async () => {
    const userId = await erasedThenToldLate();
    await scheduledSweep();
    expect(await erasureOf(userId)).toEqual({ notifications: 1, pending: true });
  });
});
