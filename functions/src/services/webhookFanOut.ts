import { randomBytes } from 'node:crypto';
import { createUnderOwnId } from '../adapters/firestore';
import { enqueueDeliveryAttempt } from '../adapters/taskQueue';
import { webhookRetrySchedule } from '../config';
import { newDelivery, webhookDeliveriesCollection, deliveryFromSnapshot } from '../data/webhookDeliveries';
import { webhookEventsCollection } from '../data/webhookEvents';
import { webhooksTaking } from '../data/webhooks';
import { deliveryTaskId, isWebhookEventType, webhookDeliveryId } from '../domain/webhookEvents';
import { logWarn } from '../log';

/**
 * One delivery per active webhook taking the event's type, each with its first
 * attempt queued at once: safe to run any number of times for one event (the trigger
 * is redelivered on failure). A delivery's id derives from event and webhook and is
 * created once; its first task's id derives from the delivery as stored, so a second
 * run queues nothing new.
 */
export async function fanOutWebhookEvent(eventId: string): Promise<number> {
  const event = (await webhookEventsCollection().doc(eventId).get()).data();
  if (!event) return 0;
  if (!isWebhookEventType(event.type) || typeof event.body !== 'string') {
    logWarn('webhook_event_unreadable', { eventId });
    return 0;
  }
  const webhooks = await webhooksTaking(event.type);
  const finalAttempt = webhookRetrySchedule().length + 1;
  await Promise.all(
    webhooks.map(async (webhook) => {
      const ref = webhookDeliveriesCollection().doc(webhookDeliveryId(eventId, webhook.id));
      await createUnderOwnId(
        ref,
        newDelivery({
          webhookId: webhook.id,
          eventId,
          type: event.type,
          body: event.body,
          finalAttempt,
          series: randomBytes(6).toString('hex'),
        }),
      );
      const delivery = deliveryFromSnapshot(await ref.get());
      if (delivery)
        await enqueueDeliveryAttempt({ deliveryId: ref.id, attempt: 1 }, deliveryTaskId(ref.id, delivery.series, 1), 0);
    }),
  );
  return webhooks.length;
}
