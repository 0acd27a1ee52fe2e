import { randomUUID } from 'node:crypto';
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { enqueueDeliveryAttempt, type DeliveryTask } from '../adapters/taskQueue';
import { postWebhook, systemResolver, type Resolver } from '../adapters/webhookHttp';
import { webhookRetrySchedule } from '../config';
import {
  deliveryFromSnapshot,
  reopenedDelivery,
  webhookDeliveriesCollection,
  type DeliveryAttemptRecord,
  type DeliveryRecord,
} from '../data/webhookDeliveries';
import { getWebhook, signingSecrets, type WebhookRecord } from '../data/webhooks';
import { webhookTarget } from '../domain/webhookAddress';
import { deliveryTaskId, webhookSignature } from '../domain/webhookEvents';
import { logInfo, logWarn } from '../log';

/**
 * How long a claim on an attempt holds: longer than a whole run of the task function
 * (its timeoutSeconds, index.ts), so a live run is never overtaken, and a dead run's
 * claim is taken over by the task's redelivery after it.
 */
export const CLAIM_LEASE_MS = 150_000;

/** Another run holds the claim on this attempt: the task is redelivered later (its retryConfig). */
export class AttemptClaimed extends Error {}

type Claim =
  | { state: 'missing' | 'settled' | 'not-due' }
  | { state: 'recorded'; delivery: DeliveryRecord }
  | { state: 'claimed'; delivery: DeliveryRecord };

/**
 * Runs attempt `task.attempt` of a delivery, at most once however often its task is
 * delivered. Claim-then-act: a transaction claims the attempt (refusing while another
 * run's claim is fresh), the POST is sent, and a second transaction records the
 * attempt only if the claim is still this run's, setting the status and releasing the
 * claim; then the next attempt is queued after its wait. A task whose attempt is
 * already recorded queues the next one again (a run that died between recording and
 * queueing), which its task id makes a no-op when it was queued.
 */
export async function attemptDelivery(task: DeliveryTask, resolver: Resolver = systemResolver): Promise<string> {
  const ref = webhookDeliveriesCollection().doc(task.deliveryId);
  const runId = randomUUID();
  const claim = await runTransaction<Claim>(async (tx) => {
    const delivery = deliveryFromSnapshot(await tx.get(ref));
    if (!delivery) return { state: 'missing' };
    if (delivery.status !== 'pending') return { state: 'settled' };
    const recorded = delivery.attempts.length;
    if (recorded >= task.attempt) return { state: 'recorded', delivery };
    if (recorded < task.attempt - 1) return { state: 'not-due' };
    const held = delivery.claim;
    const ours = held?.runId === runId;
    if (held && !ours && held.attempt === task.attempt && Date.now() - held.at.toMillis() < CLAIM_LEASE_MS) {
      throw new AttemptClaimed(`attempt ${task.attempt} of ${task.deliveryId} is being run`);
    }
    if (!ours) tx.update(ref, { claim: { attempt: task.attempt, runId, at: Timestamp.now() } });
    return { state: 'claimed', delivery };
  });
  if (claim.state === 'recorded') {
    await queueNextAttempt(claim.delivery);
    return 'recorded';
  }
  if (claim.state !== 'claimed') return claim.state;

  const webhook = await getWebhook(claim.delivery.webhookId);
  if (!webhook?.active) {
    await settle(ref.id, runId, { status: 'failed', stoppedBecause: 'webhook-deleted' });
    return 'webhook-gone';
  }
  const attempt = await sendAttempt(webhook, claim.delivery, resolver);
  const succeeded = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  const status = succeeded ? 'succeeded' : task.attempt >= claim.delivery.finalAttempt ? 'failed' : 'pending';
  const after = await settle(ref.id, runId, { status, attempts: FieldValue.arrayUnion(attempt) });
  logInfo('webhook_attempt', {
    deliveryId: ref.id,
    webhookId: webhook.id,
    attempt: task.attempt,
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    status,
    recorded: after !== undefined,
  });
  if (after?.status === 'pending') await queueNextAttempt(after);
  return after ? status : 'claim-lost';
}

/**
 * The task of attempt `task.attempt` failed to finish on its queue's last try (an
 * error, a crash, a claim held every time): no task will run it again, so the delivery
 * ends `failed` (`stoppedBecause: 'task-retries-exhausted'`), listed and retryable by
 * the operator (POST .../retry), never `pending` forever. Left alone when a later
 * attempt is under way, or a run holds a fresh claim (that run records the attempt).
 * True when the delivery was ended now.
 */
export async function failExhaustedDelivery(task: DeliveryTask): Promise<boolean> {
  const ref = webhookDeliveriesCollection().doc(task.deliveryId);
  const ended = await runTransaction(async (tx) => {
    const delivery = deliveryFromSnapshot(await tx.get(ref));
    if (delivery?.status !== 'pending' || delivery.attempts.length > task.attempt) return false;
    const held = delivery.claim;
    if (held && Date.now() - held.at.toMillis() < CLAIM_LEASE_MS) return false;
    tx.update(ref, { status: 'failed', stoppedBecause: 'task-retries-exhausted', claim: null });
    return true;
  });
  if (ended) logWarn('webhook_delivery_retries_exhausted', { deliveryId: task.deliveryId, attempt: task.attempt });
  return ended;
}

/** Writes the attempt's end if this run's claim still stands, releasing it; the delivery after, else undefined. */
async function settle(
  deliveryId: string,
  runId: string,
  update: Record<string, unknown>,
): Promise<DeliveryRecord | undefined> {
  const ref = webhookDeliveriesCollection().doc(deliveryId);
  const stood = await runTransaction(async (tx) => {
    const delivery = deliveryFromSnapshot(await tx.get(ref));
    if (delivery?.claim?.runId !== runId) return false;
    tx.update(ref, { ...update, claim: null });
    return true;
  });
  return stood ? deliveryFromSnapshot(await ref.get()) : undefined;
}

/** The wait before the attempt after `done` attempts: WEBHOOK_RETRY_SECONDS' own for that retry. */
function scheduledWait(done: number): number {
  const schedule = webhookRetrySchedule();
  return done === 0 ? 0 : schedule[Math.min(done - 1, schedule.length - 1)];
}

/** Queues the attempt after the last one recorded, after `wait` seconds. */
async function queueNextAttempt(
  delivery: DeliveryRecord,
  wait = scheduledWait(delivery.attempts.length),
): Promise<void> {
  const done = delivery.attempts.length;
  if (delivery.status !== 'pending' || done >= delivery.finalAttempt) return;
  const next = done + 1;
  await enqueueDeliveryAttempt(
    { deliveryId: delivery.id, attempt: next },
    deliveryTaskId(delivery.id, delivery.series, next),
    wait,
  );
}

/** One POST, signed now with every secret that signs now; what it came to as an attempt record. */
async function sendAttempt(
  webhook: WebhookRecord,
  delivery: DeliveryRecord,
  resolver: Resolver,
): Promise<DeliveryAttemptRecord> {
  const at = new Date();
  const started = performance.now();
  const target = webhookTarget(webhook.url, process.env.FUNCTIONS_EMULATOR === 'true');
  const elapsed = () => Math.round(performance.now() - started);
  if (typeof target === 'string') {
    return { at: Timestamp.fromDate(at), statusCode: null, durationMs: 0, error: `refused: ${target}` };
  }
  const timestamp = Math.floor(at.getTime() / 1000);
  const outcome = await postWebhook(
    target,
    {
      'user-agent': 'KioskRewards-Webhooks/1.0',
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignature(signingSecrets(webhook, at), delivery.eventId, timestamp, delivery.body),
    },
    delivery.body,
    resolver,
  );
  const durationMs = elapsed();
  if (outcome.statusCode === null) {
    logWarn('webhook_attempt_failed', { deliveryId: delivery.id, error: outcome.error });
    return { at: Timestamp.fromDate(at), statusCode: null, durationMs, error: outcome.error };
  }
  const ok = outcome.statusCode >= 200 && outcome.statusCode < 300;
  return {
    at: Timestamp.fromDate(at),
    statusCode: outcome.statusCode,
    durationMs,
    // The status only: a receiver's answer may echo what it was sent or its own secrets.
    error: ok ? null : `answered ${outcome.statusCode}`,
  };
}

/**
 * Sends a delivery again now, once (POST .../retry): it becomes pending with one more
 * attempt allowed, and that attempt is queued without a wait. False when it is
 * pending already (its own attempts are under way).
 */
export async function retryDeliveryNow(delivery: DeliveryRecord): Promise<boolean> {
  const ref = webhookDeliveriesCollection().doc(delivery.id);
  const reopened = await runTransaction(async (tx) => {
    const current = deliveryFromSnapshot(await tx.get(ref));
    if (!current || current.status === 'pending') return undefined;
    const finalAttempt = current.attempts.length + 1;
    tx.update(ref, reopenedDelivery(finalAttempt));
    return { ...current, status: 'pending' as const, finalAttempt };
  });
  if (!reopened) return false;
  await queueNextAttempt(reopened, 0);
  return true;
}
