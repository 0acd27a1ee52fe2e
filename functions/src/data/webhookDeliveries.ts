/**
 * webhookDeliveries/{id}: one event to one webhook (contract §13), with every attempt.
 * `status` is `pending` while attempts remain, then `succeeded` (a 2xx) or `failed`.
 * An attempt is run under a claim (`claim`: which attempt, by which run, since when),
 * taken and released in transactions, so that a task delivered twice never sends one
 * attempt twice at once nor records it twice (services/webhookDelivery.ts). No client
 * reads it.
 */
import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import type { WebhookDeliveryView } from '../model/webhookViews';
import { newestFirstPageOf } from './userPages';
import { webhookRecordExpiry } from './webhookEvents';
import type { DeliveryStatus, WebhookEventType } from '../model/webhookEventTypes';

export const webhookDeliveriesCollection = () => db().collection('webhookDeliveries');

export interface DeliveryAttemptRecord {
  at: Timestamp;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface DeliveryClaim {
  attempt: number;
  runId: string;
  at: Timestamp;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  type: WebhookEventType;
  /** The exact text POSTed and signed on every attempt. */
  body: string;
  status: DeliveryStatus;
  createdAt: Timestamp;
  attempts: DeliveryAttemptRecord[];
  /** The last attempt of the current series: 1 + the retries of the schedule, or one more after a manual retry. */
  finalAttempt: number;
  /** Part of every task id of this delivery (domain/webhookEvents.ts deliveryTaskId). */
  series: string;
  claim: DeliveryClaim | null;
}

export type { WebhookDeliveryView };

/** A webhookDeliveries document as first stored: pending, no attempt yet. */
export const newDelivery = (fields: {
  webhookId: string;
  eventId: string;
  type: WebhookEventType;
  body: string;
  finalAttempt: number;
  series: string;
}): DocumentData => ({
  ...fields,
  status: 'pending',
  createdAt: Timestamp.now(),
  expireAt: webhookRecordExpiry(Date.now()),
  attempts: [],
  claim: null,
});

/** The update that starts a new series of attempts on a delivery that ended (a manual retry): kept a month from now. */
export const reopenedDelivery = (finalAttempt: number): DocumentData => ({
  status: 'pending',
  finalAttempt,
  stoppedBecause: FieldValue.delete(),
  expireAt: webhookRecordExpiry(Date.now()),
});

export const deliveryFromSnapshot = (snapshot: DocumentSnapshot): DeliveryRecord | undefined => {
  const data = snapshot.data();
  if (!data || typeof data.body !== 'string' || !Array.isArray(data.attempts)) return undefined;
  return { ...(data as Omit<DeliveryRecord, 'id'>), id: snapshot.id };
};

export const toDeliveryView = (delivery: DeliveryRecord): WebhookDeliveryView => ({
  id: delivery.id,
  eventId: delivery.eventId,
  type: delivery.type,
  status: delivery.status,
  createdAt: delivery.createdAt.toDate().toISOString(),
  attempts: delivery.attempts.map(({ at, statusCode, durationMs, error }) => ({
    at: at.toDate().toISOString(),
    statusCode,
    durationMs,
    error,
  })),
});

/** One page of a webhook's deliveries (of one status, if given), newest first. */
export async function webhookDeliveriesPage(
  webhookId: string,
  status: DeliveryStatus | undefined,
  page: { limit: number; cursor: string | undefined },
): Promise<{ items: WebhookDeliveryView[]; nextCursor: string | null }> {
  const collection = webhookDeliveriesCollection();
  const ofWebhook = collection.where('webhookId', '==', webhookId);
  const filtered = status === undefined ? ofWebhook : ofWebhook.where('status', '==', status);
  return newestFirstPageOf(collection, filtered, page, (snapshot) => toDeliveryView(deliveryFromSnapshot(snapshot)!));
}
