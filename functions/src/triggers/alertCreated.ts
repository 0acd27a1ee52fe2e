import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/firestore';
import { logInfo } from '../log';
import { pushTransport } from '../adapters/push';
import { pushOpenedAlert } from '../services/alertPush';

/** onDocumentCreated("alerts/{alertId}"): the one push of an opened alert to the operators' topic. */
export async function onAlertCreated(
  event: FirestoreEvent<QueryDocumentSnapshot | undefined, { alertId: string }>,
): Promise<void> {
  const { alertId } = event.params;
  const state = await pushOpenedAlert(alertId, pushTransport());
  logInfo('alert_push', { alertId, eventId: event.id, state });
}
