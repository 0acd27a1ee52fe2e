import type { Message } from 'firebase-admin/messaging';
import { OutboxPushTransport, type PushTransport } from '../../src/adapters/push';
import { transactionEffects } from '../../src/index';
import { applyTransactionEffects } from '../../src/services/transactionEffects';
import { GRPC, injectCommitFaults, writesDocument } from './commit-faults';
import { db, functionsTestEnv, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { seedUserTransaction } from './seeds';

const testEnv = functionsTestEnv();

beforeEach(resetEmulators);

describe('transaction trigger redelivered', () => {
  withoutBackgroundTriggers();

  test('the same event run twice (firebase-functions-test) changes nothing the second time', async () => {
    const { kioskId, userId, transactionId, recorded: data } = await seedUserTransaction('phone-twice');
    const wrapped = testEnv.wrap(transactionEffects);
    const event = {
      id: 'event-1',
      params: { transactionId },
      data: testEnv.firestore.makeDocumentSnapshot(data, `transactions/${transactionId}`),
    };

    await wrapped(event);
    const afterFirst = (await db().collection('transactions').doc(transactionId).get()).data()!;
    await wrapped(event);
    const afterSecond = (await db().collection('transactions').doc(transactionId).get()).data()!;

    expect(afterSecond.effects).toEqual(afterFirst.effects);
    expect(afterSecond.effects).toMatchObject({
      kioskCounted: true,
      notificationId: transactionId,
      push: { status: 'sent' },
    });
    const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
    expect([kiosk.plasticCount, kiosk.metalCount]).toEqual([2, 1]);
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(1);
    expect((await db().collection('pushOutbox').get()).size).toBe(1);
  });

  test('a run that died between claiming the push and recording it is completed without pushing again', async () => {
    const { kioskId, userId, transactionId } = await seedUserTransaction('phone-crash');
    // What a run leaves behind when its instance dies right after the claim commit.
    await db()
      .collection('transactions')
      .doc(transactionId)
      .update({
        effects: { kioskCounted: true, notificationId: transactionId, push: { status: 'sending' } },
      });
    const sent: unknown[] = [];
    const recording: PushTransport = { send: async (message) => (sent.push(message), 'id-1') };

    await applyTransactionEffects(transactionId, recording);

    const done = (await db().collection('transactions').doc(transactionId).get()).data()!;
    expect(sent).toEqual([]);
    expect(done.effects.push).toEqual({ status: 'failed', error: 'interrupted' });
    expect(done.effects.completedAt).toBeDefined();
    expect((await db().collection('kiosks').doc(kioskId).get()).get('plasticCount')).toBe(0);
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(0);
  });

  /** What the platform does with `retry: true`: a run that fails is delivered again. */
  async function runAsDeployed(transactionId: string, push: PushTransport): Promise<number> {
    for (let run = 1; run <= 3; run++) {
      try {
        await applyTransactionEffects(transactionId, push);
        return run;
      } catch {
        // Redelivered.
      }
    }
    throw new Error(`three runs of the effects of ${transactionId} failed`);
  }

  test('the outcome write times out after the push: the message id is still recorded, nothing pushed twice', async () => {
    const { transactionId } = await seedUserTransaction('phone-outcome');
    const sent: Message[] = [];
    const recording: PushTransport = { send: async (message) => (sent.push(message), 'projects/p/messages/m-1') };
    const fault = injectCommitFaults(
      db(),
      (request) => !request.transaction && writesDocument(`transactions/${transactionId}`)(request),
      1,
      GRPC.DEADLINE_EXCEEDED,
    );
    const runs = await runAsDeployed(transactionId, recording).finally(fault.restore);
    const effects = (await db().collection('transactions').doc(transactionId).get()).get('effects');
    expect(effects.push).toEqual({ status: 'sent', messageId: 'projects/p/messages/m-1' });
    expect(effects.completedAt).toBeDefined();
    expect({ runs, failedCommits: fault.injected() }).toEqual({ runs: 1, failedCommits: 1 });

    await applyTransactionEffects(transactionId, recording);
    expect(sent).toHaveLength(1);
    expect((await db().collection('transactions').doc(transactionId).get()).get('effects')).toEqual(effects);
  });

  test('removing the dead token times out on every attempt of its transaction: retried, removed, the outcome recorded', async () => {
    const { userId, transactionId } = await seedUserTransaction('unregistered-dead-phone');
    const fault = injectCommitFaults(
      db(),
      writesDocument(`users/${userId}`),
      // As many attempts as the Admin SDK would make at one transaction before giving up.
      5,
      GRPC.DEADLINE_EXCEEDED,
    );
    const runs = await runAsDeployed(transactionId, new OutboxPushTransport()).finally(fault.restore);
    expect((await db().collection('users').doc(userId).get()).get('pushToken')).toBeUndefined();
    const effects = (await db().collection('transactions').doc(transactionId).get()).get('effects');
    expect(effects.push).toEqual({ status: 'failed', error: 'unregistered' });
    expect(effects.completedAt).toBeDefined();
    expect({ runs, failedCommits: fault.injected() }).toEqual({ runs: 1, failedCommits: 5 });
  });
});
