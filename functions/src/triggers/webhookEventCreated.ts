import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/firestore';
import { fanOutWebhookEvent } from '../services/webhookFanOut';
import { logInfo } from '../log';

/** onDocumentCreated("webhookEvents/{eventId}"): one delivery per webhook taking it, first attempts queued. */
export async function onWebhookEventCreated(
  event: FirestoreEvent<QueryDocumentSnapshot | undefined, Record<'eventId', string>>,
): Promise<void> {
  const state = await fanOutWebhookEvent(event.params.eventId);
  logInfo('webhook_fan_out', { eventId: event.params.eventId, state });
}
