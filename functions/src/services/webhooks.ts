import { retryDeliveryNow } from './webhookDelivery';
import { deliveryFromSnapshot, webhookDeliveriesCollection } from '../data/webhookDeliveries';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  rotateWebhookSecret,
  toWebhookView,
  type WebhookRecord,
} from '../data/webhooks';
import { webhookTarget } from '../domain/webhookAddress';
import { assertPartnerExists } from '../data/partners';
import { newWebhookSecret } from '../domain/webhookEvents';
import { PARTNER_WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../model/webhookEventTypes';
import { badRequest, conflict, notFound } from '../errors';
import type { NewWebhookView } from '../model/webhookViews';

const onEmulator = () => process.env.FUNCTIONS_EMULATOR === 'true';

/**
 * Registers a webhook and answers it with its secret, the one time the secret is shown.
 * `emulator`: whether it is for the emulator suite (local receivers over http allowed).
 * A partner's webhook (`partnerId`) takes only PARTNER_WEBHOOK_EVENT_TYPES: whoever
 * runs it sees the uses and cancels of that partner's vouchers and nothing else.
 */
export async function registerWebhook(
  request: { url: string; events: WebhookEventType[]; description?: string | null; partnerId?: string | null },
  emulator = onEmulator(),
): Promise<NewWebhookView> {
  const target = webhookTarget(request.url, emulator);
  if (typeof target === 'string') throw badRequest(target, 'webhook-url-refused');
  const events = [...new Set(request.events)];
  if (events.length === 0) throw badRequest('events must name at least one event type');
  const partnerId = request.partnerId ?? null;
  const partnerTakes: readonly string[] = PARTNER_WEBHOOK_EVENT_TYPES;
  if (partnerId !== null) {
    const others = events.filter((type) => !partnerTakes.includes(type));
    if (others.length > 0) {
      throw badRequest(`A partner's webhook takes only ${partnerTakes.join(', ')} (not ${others.join(', ')})`);
    }
    await assertPartnerExists(partnerId);
  }
  const secret = newWebhookSecret();
  const webhook = await createWebhook(
    { url: request.url, events, description: request.description ?? '', partnerId },
    secret,
  );
  return { ...toWebhookView(webhook), secret };
}

async function existingWebhook(id: string): Promise<WebhookRecord> {
  const webhook = await getWebhook(id);
  if (!webhook) throw notFound(`Webhook ${id} not found`);
  return webhook;
}

/** A new secret, shown in the answer only; the old one still signs for 24 h. */
export async function rotateSecret(id: string): Promise<NewWebhookView> {
  const secret = newWebhookSecret();
  const webhook = await rotateWebhookSecret(id, secret);
  if (!webhook) throw notFound(`Webhook ${id} not found`);
  return { ...toWebhookView(webhook), secret };
}

export async function removeWebhook(id: string): Promise<void> {
  if (!(await deleteWebhook(id))) throw notFound(`Webhook ${id} not found`);
}

/** Throws the 404 of a webhook that does not exist. */
export const assertWebhookExists = async (id: string): Promise<void> => {
  await existingWebhook(id);
};

/** POST /admin/webhooks/{id}/deliveries/{deliveryId}/retry: one more attempt, queued now. */
export async function retryDelivery(webhookId: string, deliveryId: string): Promise<void> {
  await existingWebhook(webhookId);
  const delivery = deliveryFromSnapshot(await webhookDeliveriesCollection().doc(deliveryId).get());
  if (!delivery || delivery.webhookId !== webhookId) {
    throw notFound(`Delivery ${deliveryId} not found for webhook ${webhookId}`);
  }
  if (!(await retryDeliveryNow(delivery))) {
    throw conflict(`Delivery ${deliveryId} is pending: its attempts are under way`, 'webhook-delivery-pending');
  }
}
