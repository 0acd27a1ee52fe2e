import { createHash, createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../model/webhookEventTypes';

export const isWebhookEventType = (value: unknown): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(value);

const digest = (text: string, length: number): string =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

/**
 * The id of the event that `subjectId` (the thing's own id) had `type` happen to it:
 * derived, so that staging it twice names one document and one `webhook-id`. Letters,
 * digits and `_` only: a document id, a path id and a task id alike.
 */
export const webhookEventId = (type: WebhookEventType, subjectId: string): string =>
  `evt_${digest(`${type}\n${subjectId}`, 32)}`;

/** One event's delivery to one webhook: derived from both, so a fan-out run twice creates it once. */
export const webhookDeliveryId = (eventId: string, webhookId: string): string =>
  `dlv_${digest(`${eventId}\n${webhookId}`, 32)}`;

/**
 * The Cloud Tasks id of one attempt of a delivery. `series` is chosen once when the
 * delivery is created: task names stay taken for a while after their task ran, and a
 * delivery made again under the same id (a cleared database) must not meet them.
 */
export const deliveryTaskId = (deliveryId: string, series: string, attempt: number): string =>
  `${deliveryId}-${series}-${attempt}`;

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24-64). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` header of Standard Webhooks 1.0: `v1,<base64 HMAC-SHA256>`
 * of `id.timestamp.body` under each secret (the key is the base64 after `whsec_`),
 * space-separated when a rotation leaves two secrets valid.
 */
export function webhookSignature(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** How long the secret a rotation replaced still signs deliveries. */
export const ROTATED_SECRET_GRACE_MS = 24 * 3_600_000;

/**
 * WEBHOOK_RETRY_SECONDS: the waits before each retry, comma-separated whole seconds.
 * A malformed list falls back to `fallback` (the caller logs it).
 */
export function parseRetrySchedule(raw: string): number[] | undefined {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || !parts.every((part) => /^[0-9]{1,7}$/.test(part))) return undefined;
  return parts.map(Number);
}

export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** Per attempt: the receiver has this long to answer with its status. */
export const DELIVERY_TIMEOUT_MS = 10_000;
