/**
 * Every sweep finishes or continues (contract, Part four): a scheduled handler given
 * more work than its time budget (injected as the handler's parameter) stops in time,
 * and its next run continues from where it stopped; a webhook delivery whose task ran
 * out of queue retries ends `failed`, never `pending` forever.
 */
import { Timestamp } from 'firebase-admin/firestore';
import type { Request } from 'firebase-functions/tasks';
import type { DeliveryTask } from '../../src/adapters/taskQueue';
import { alertsCollection, newAlert } from '../../src/data/alerts';
import { newDelivery, webhookDeliveriesCollection } from '../../src/data/webhookDeliveries';
import { runEffectsSweep } from '../../src/triggers/effectsSweep';
import { runDailyExpiry } from '../../src/triggers/pointsExpiry';
import { runSilentSweep } from '../../src/triggers/silentSweep';
import { DELIVERY_TASK_MAX_ATTEMPTS, onDeliveryTask } from '../../src/triggers/webhookTask';
import { injectCommitFaults, writesDocument } from './commit-faults';
import { db, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { seedKiosk, seedUser } from './seeds';

beforeEach(resetEmulators);
withoutBackgroundTriggers();

/** A budget spent at once: each run does its first piece of work only (a batch of 8 kiosks or documents, 16 users). */
const NO_TIME = 0;

test('the effects sweep stops when its budget is spent and continues after the last document it took', async () => {
  const openedAt = Date.now() - 10 * 60_000;
  const alertIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const ref = alertsCollection().doc(`alert-${String(i).padStart(2, '0')}`);
    await ref.create(newAlert(`kiosk-${i}`, 'silent', 'unseen for 20 minutes', new Date(openedAt + i)));
    alertIds.push(ref.id);
  }
  const swept = async () => {
    const outcome = await runEffectsSweep({ budgetMs: NO_TIME });
    return { alerts: outcome.alerts, unfinished: outcome.unfinished };
  };

  expect(await swept()).toEqual({ alerts: { pending: 8, completed: 8, failed: 0 }, unfinished: true });
  const cursor = (await db().doc('sweepCursors/effectsSweep').get()).get('cursor');
  expect(cursor).toMatchObject({ kind: 'alerts', after: { id: alertIds[7] } });
  expect(await swept()).toEqual({ alerts: { pending: 8, completed: 8, failed: 0 }, unfinished: true });
  // The last 4, then the kinds after alerts on the next run: a round done.
  expect(await swept()).toEqual({ alerts: { pending: 4, completed: 4, failed: 0 }, unfinished: true });
  expect(await swept()).toEqual({ alerts: { pending: 0, completed: 0, failed: 0 }, unfinished: false });
  const pushes = await db().collection('pushOutbox').where('message.topic', '==', 'operators').get();
  expect(pushes.size).toBe(20);
  const pending = await alertsCollection().where('effectsPending', '==', true).get();
  expect(pending.size).toBe(0);
});

test('the silent sweep judges a batch per spent budget, and the next run the kiosks left', async () => {
  for (let i = 0; i < 20; i++) {
    const kioskId = await seedKiosk({ id: `silent-${String(i).padStart(2, '0')}` });
    await db()
      .doc(`kiosks/${kioskId}`)
      .update({ lastSeenAt: Timestamp.fromMillis(Date.now() - 20 * 60_000) });
  }
  const swept = async () => {
    const { checked, unfinished, opened } = await runSilentSweep({ budgetMs: NO_TIME });
    return { checked, unfinished, opened };
  };
  expect(await swept()).toEqual({ checked: 8, unfinished: 12, opened: 8 });
  expect(await swept()).toEqual({ checked: 8, unfinished: 4, opened: 8 });
  expect(await swept()).toEqual({ checked: 4, unfinished: 0, opened: 4 });
  // Silent kiosks whose alert is open have nothing left to judge.
  expect(await swept()).toEqual({ checked: 0, unfinished: 0, opened: 0 });
  expect((await alertsCollection().where('kind', '==', 'silent').get()).size).toBe(20);
});

test("the expiry run stops when its budget is spent and the next run continues the day's run to its end", async () => {
  await db().doc('config/rewards').set({ pointsExpireAfterMonths: 1 });
  const userIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const userId = await seedUser({ id: `expiring-${String(i).padStart(2, '0')}`, currentPoints: 70, totalPoints: 70 });
    await db()
      .doc(`users/${userId}`)
      .update({ pointsByMonth: { '2001-01': 70 }, pointsOldestMonth: '2001-01' });
    userIds.push(userId);
  }
  const run = async () => {
    const { expired, continued, done } = await runDailyExpiry({ budgetMs: NO_TIME });
    return { expired, continued, done };
  };
  expect(await run()).toEqual({ expired: { users: 16, points: 16 * 70 }, continued: true, done: false });
  expect(await run()).toEqual({ expired: { users: 4, points: 4 * 70 }, continued: true, done: true });
  // The day's run is done: the day's other hours read one document.
  expect(await run()).toEqual({ expired: { users: 0, points: 0 }, continued: false, done: true });
  for (const userId of userIds) {
    expect((await db().doc(`users/${userId}`).get()).get('currentPoints')).toBe(0);
  }
});

describe('a webhook delivery whose task fails', () => {
  async function pendingDelivery() {
    const ref = webhookDeliveriesCollection().doc('delivery-1');
    await ref.create(
      newDelivery({
        webhookId: 'webhook-1',
        eventId: 'event-1',
        type: 'points.expired',
        body: '{}',
        finalAttempt: 6,
        series: 'series-1',
      }),
    );
    return ref;
  }
  /** The task of attempt 1 on its try `retryCount` (from 0), its claim's commit refused (not retried by the SDK). */
  async function failingTry(retryCount: number) {
    const request = { data: { deliveryId: 'delivery-1', attempt: 1 }, retryCount } as unknown as Request<DeliveryTask>;
    const PERMISSION_DENIED = 7;
    const fault = injectCommitFaults(db(), writesDocument('webhookDeliveries/delivery-1'), 1, PERMISSION_DENIED);
    try {
      return await onDeliveryTask(request).then(
        () => 'finished',
        () => 'failed, for the queue to try again',
      );
    } finally {
      fault.restore();
    }
  }

  test('before its last try: stays pending for the queue to try again', async () => {
    const ref = await pendingDelivery();
    expect(await failingTry(DELIVERY_TASK_MAX_ATTEMPTS - 2)).toBe('failed, for the queue to try again');
    expect((await ref.get()).get('status')).toBe('pending');
  });

  test('on its last try: ends failed (retryable by the operator), never pending forever', async () => {
    const ref = await pendingDelivery();
    expect(await failingTry(DELIVERY_TASK_MAX_ATTEMPTS - 1)).toBe('finished');
    expect((await ref.get()).data()).toMatchObject({
      status: 'failed',
      stoppedBecause: 'task-retries-exhausted',
      claim: null,
    });
  });
});
