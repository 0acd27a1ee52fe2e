import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/firestore';
import { logInfo } from '../log';
import { pushTransport } from '../adapters/push';
import { applyTransactionEffects } from '../services/transactionEffects';

/** onDocumentCreated("transactions/{transactionId}"): kiosk counters and daily figures, in-app notification, push. */
export async function onTransactionCreated(
  event: FirestoreEvent<QueryDocumentSnapshot | undefined, { transactionId: string }>,
): Promise<void> {
  const { transactionId } = event.params;
  const state = await applyTransactionEffects(transactionId, pushTransport());
  logInfo('transaction_effects', { transactionId, eventId: event.id, state });
}
