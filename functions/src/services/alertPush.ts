import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import type { Message } from 'firebase-admin/messaging';
import { logError, logInfo, logWarn } from '../log';
import { runTransaction } from '../adapters/firestore';
import { PushError, type PushTransport } from '../adapters/push';
import { alertFromSnapshot, alertsCollection } from '../data/alerts';
import { effectsSettled } from '../data/pendingEffects';
import { OPERATORS_TOPIC, alertNotification } from '../domain/messages';

type Claim =
  { state: 'missing' | 'unreadable' | 'complete' | 'completed-now' } | { state: 'claimed'; message: Message };

/**
 * The one push to the topic `operators` of an opened alert, safe to run any number of
 * times for one alert (the trigger is redelivered on failure). Claim-then-act: a
 * Firestore transaction marks `push.status = "sending"` on the alert with an id
 * chosen once per run, then the run sends and records the outcome. A redelivery
 * finds the outcome and sends nothing; one that finds another run's claim without an
 * outcome (that run died) records it as failed, "interrupted", rather than risk a
 * second push. The claim id lets a run recognise its own claim when the SDK re-runs
 * the transaction after a lost answer.
 */
export async function pushOpenedAlert(alertId: string, push: PushTransport): Promise<Claim['state']> {
  const ref = alertsCollection().doc(alertId);
  const claimId = randomUUID();
  const claim = await runTransaction<Claim>(async (tx) => {
    const snapshot = await tx.get(ref);
    if (!snapshot.exists) return { state: 'missing' };
    const alert = alertFromSnapshot(snapshot);
    if (!alert) return { state: 'unreadable' };
    const state: { status?: unknown; claimId?: unknown } | undefined = snapshot.get('push');
    const ours = state?.status === 'sending' && state.claimId === claimId;
    if (state === undefined || ours) {
      if (!ours) tx.update(ref, { push: { status: 'sending', claimId, claimedAt: FieldValue.serverTimestamp() } });
      const content = alertNotification(alert);
      return {
        state: 'claimed',
        message: {
          topic: OPERATORS_TOPIC,
          notification: { title: content.title, body: content.body },
          data: content.data,
        },
      };
    }
    if (state.status !== 'sending') return { state: 'complete' };
    tx.update(ref, { push: { status: 'failed', error: 'interrupted' }, ...effectsSettled() });
    return { state: 'completed-now' };
  });
  if (claim.state !== 'claimed') return claim.state;

  let outcome: Record<string, string>;
  try {
    const messageId = await push.send(claim.message);
    logInfo('alert_push_sent', { alertId, messageId });
    outcome = { status: 'sent', messageId };
  } catch (error) {
    const failure = error instanceof PushError ? error : new PushError('unavailable', 'unknown');
    logWarn('alert_push_failed', { alertId, failure: failure.failure, code: failure.providerCode });
    outcome = { status: 'failed', error: failure.failure };
  }
  // The push went out (or was refused) at most once whatever happens now: a failed
  // write leaves the claim "sending", which is logged here rather than retried by a
  // redelivery that could only call it interrupted.
  await ref.update({ push: outcome, ...effectsSettled() }).catch((error: unknown) => {
    logError('alert_push_outcome_write_failed', { alertId, code: (error as { code?: unknown })?.code });
  });
  return 'completed-now';
}
