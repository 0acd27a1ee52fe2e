import { randomBytes } from 'node:crypto';
import { createUnderOwnId } from '../adapters/firestore';
import { enqueueDeliveryAttempt } from '../adapters/taskQueue';
import { webhookRetrySchedule } from '../config';
import { newDelivery, webhookDeliveriesCollection, deliveryFromSnapshot } from '../data/webhookDeliveries';
import { EFFECTS_PENDING, effectsSettled } from '../data/pendingEffects';
import { webhookEventsCollection } from '../data/webhookEvents';
import { webhooksTaking, type WebhookRecord } from '../data/webhooks';
import { deliveryTaskId, isWebhookEventType, webhookDeliveryId } from '../domain/webhookEvents';
import { logWarn } from '../log';

/**
 * What `webhook` is sent of an event: the operator's webhooks the body, a partner's
 * only an event of its own partner, in the body made for it (no user id); undefined:
 * nothing.
 */
function bodyFor(webhook: WebhookRecord, event: FirebaseFirestore.DocumentData): string | undefined {
  if (webhook.partnerId === null) return event.body;
  return event.partnerId === webhook.partnerId && typeof event.partnerBody === 'string' ? event.partnerBody : undefined;
}

/**
 * One delivery per active webhook taking the event's type, each with its first
 * attempt queued at once: safe to run any number of times for one event (the trigger
 * is redelivered on failure). A delivery's id derives from event and webhook and is
 * created once; its first task's id derives from the delivery as stored, so a second
 * run queues nothing new. `effectsPending` goes when every first attempt is queued: a
 * run cut short leaves it for the next run, or for the effects sweep.
 */
export async function fanOutWebhookEvent(eventId: string): Promise<'missing' | 'complete' | 'completed-now'> {
  const ref = webhookEventsCollection().doc(eventId);
  const event = (await ref.get()).data();
  if (!event) return 'missing';
  if (event[EFFECTS_PENDING] !== true) return 'complete';
  if (!isWebhookEventType(event.type) || typeof event.body !== 'string') {
    logWarn('webhook_event_unreadable', { eventId });
    await ref.update(effectsSettled());
    return 'completed-now';
  }
  const webhooks = (await webhooksTaking(event.type)).flatMap((webhook) => {
    const body = bodyFor(webhook, event);
    return body === undefined ? [] : [{ webhook, body }];
  });
  const finalAttempt = webhookRetrySchedule().length + 1;
  await Promise.all(
    webhooks.map(async ({ webhook, body }) => {
      const ref = webhookDeliveriesCollection().doc(webhookDeliveryId(eventId, webhook.id));
      await createUnderOwnId(
        ref,
        newDelivery({
          webhookId: webhook.id,
          eventId,
          type: event.type,
          body,
          finalAttempt,
          series: randomBytes(6).toString('hex'),
        }),
      );
      const delivery = deliveryFromSnapshot(await ref.get());
      if (delivery)
        await enqueueDeliveryAttempt({ deliveryId: ref.id, attempt: 1 }, deliveryTaskId(ref.id, delivery.series, 1), 0);
    }),
  );
  await ref.update({ ...effectsSettled(), deliveries: webhooks.length });
  return 'completed-now';
}
