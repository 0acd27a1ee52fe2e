import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/firestore';
import { logInfo } from '../log';
import { pushTransport } from '../adapters/push';
import { applyRedemptionEffects } from '../services/redemptionEffects';

/** onDocumentCreated("redemptions/{redemptionId}"): the in-app notification and the push, once. */
export async function onRedemptionCreated(
  event: FirestoreEvent<QueryDocumentSnapshot | undefined, { redemptionId: string }>,
): Promise<void> {
  const { redemptionId } = event.params;
  const state = await applyRedemptionEffects(redemptionId, pushTransport());
  logInfo('redemption_effects', { redemptionId, eventId: event.id, state });
}
