/**
 * webhookEvents/{eventId}: the outbox of webhook events. An event is staged in the
 * very commit that makes the thing happen (an award, a redemption, a cancel, an
 * adjustment, an alert opened or resolved), so it exists exactly when the thing does;
 * its id derives from the thing's, so it is created once however often the code that
 * stages it runs. A trigger on its creation (services/webhookFanOut.ts) makes one
 * delivery per webhook taking its type, and the effects sweep does so for an event
 * whose trigger never finished (`effectsPending`). No client reads it.
 */
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { db, type StagedWrites } from '../adapters/firestore';
import { effectsPending } from './pendingEffects';
import { webhookEventId } from '../domain/webhookEvents';
import type { WebhookEventType } from '../model/webhookEventTypes';
import type { RedemptionView } from '../model/pointsViews';

export const webhookEventsCollection = () => db().collection('webhookEvents');

/**
 * How long an event and each delivery are kept: a TTL policy on their `expireAt`
 * (firestore.indexes.json) deletes them after, as webhook providers keep their
 * delivery logs for a month. Nothing depends on an old event: the commit that staged
 * it created its thing too, so it can never be staged again.
 */
export const WEBHOOK_RECORDS_KEPT_DAYS = 30;
export const webhookRecordExpiry = (fromMs: number): Timestamp =>
  Timestamp.fromMillis(fromMs + WEBHOOK_RECORDS_KEPT_DAYS * 24 * 60 * 60 * 1000);

export interface WebhookEvent {
  type: WebhookEventType;
  /** The id of the thing it happened to (a transaction, redemption, ledger entry or alert). */
  subjectId: string;
  /** When it happened. */
  at: Date;
  /** The API's view of the thing (model/webhookViews.ts, EVENT_DATA). */
  data: object;
  /** For the webhooks of this partner: what they are sent instead of `data`. */
  partner?: { partnerId: string; data: object };
}

/**
 * Stages `event` in the caller's commit (a batch or a transaction): the one call that
 * emits an event, from any service. The body is stored as the exact text every
 * delivery sends and signs.
 */
export function stageWebhookEvent(writes: StagedWrites, event: WebhookEvent): string {
  const eventId = webhookEventId(event.type, event.subjectId);
  const timestamp = event.at.toISOString();
  writes.create(webhookEventsCollection().doc(eventId), {
    type: event.type,
    subjectId: event.subjectId,
    body: JSON.stringify({ type: event.type, timestamp, data: event.data }),
    ...(event.partner && {
      partnerId: event.partner.partnerId,
      partnerBody: JSON.stringify({ type: event.type, timestamp, data: event.partner.data }),
    }),
    occurredAt: Timestamp.fromDate(event.at),
    createdAt: FieldValue.serverTimestamp(),
    expireAt: webhookRecordExpiry(event.at.getTime()),
    // Until its deliveries exist and their first attempts are queued: the effects sweep finishes what no trigger did.
    ...effectsPending,
  });
  return eventId;
}

/**
 * Stages a redemption's event: the API's view of it, never with its voucher code
 * (whoever runs a webhook could use it), with the user's id; a use or a cancel of a
 * partner's reward also for that partner's webhooks, without the user's id.
 */
export function stageRedemptionEvent(
  writes: StagedWrites,
  type: Extract<WebhookEventType, `redemption.${string}`>,
  redemption: RedemptionView,
  owner: { userId: string; partnerId: string | null },
  at: Date,
): string {
  const { code: _code, ...data } = redemption;
  const forPartner = owner.partnerId !== null && type !== 'redemption.issued';
  return stageWebhookEvent(writes, {
    type,
    subjectId: redemption.id,
    at,
    data: { ...data, userId: owner.userId },
    ...(forPartner && { partner: { partnerId: owner.partnerId!, data } }),
  });
}
