import { Timestamp } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { alertFromSnapshot, alertsCollection, toAlertView, type AlertView } from '../data/alerts';
import { kioskWindowsCollection } from '../data/kioskWindows';
import { stageWebhookEvent } from '../data/webhookEvents';
import { ApiError, notFound } from '../errors';
import { logInfo } from '../log';

/**
 * An operator resolves a `suspicious` alert (contract §17): the only kind that does not
 * resolve by itself (409 `alert-resolves-itself` for the others). Resolved with the
 * kiosk's window, in one transaction, so the kiosk's next deposit past its limit opens
 * a new one. Resolving a resolved alert answers it as it is.
 */
export async function resolveAlert(alertId: string): Promise<AlertView> {
  const outcome = await runTransaction(async (tx) => {
    const alertRef = alertsCollection().doc(alertId);
    const alert = alertFromSnapshot(await tx.get(alertRef));
    if (!alert) throw notFound(`Alert ${alertId} not found`);
    if (alert.kind !== 'suspicious') {
      throw new ApiError(
        'alert-resolves-itself',
        `Alert ${alertId} is a ${alert.kind} alert: it resolves by itself once its condition is gone`,
      );
    }
    if (alert.resolvedAt !== null) return { alert: toAlertView(alert), resolvedNow: false };
    const windowRef = kioskWindowsCollection().doc(alert.kioskId);
    const windowSnap = await tx.get(windowRef);
    const now = new Date();
    tx.update(alertRef, { resolvedAt: Timestamp.fromDate(now) });
    if (windowSnap.get('suspiciousAlertId') === alertId) tx.update(windowRef, { suspiciousAlertId: null });
    const view = toAlertView({ ...alert, resolvedAt: now });
    stageWebhookEvent(tx, { type: 'alert.resolved', subjectId: alertId, at: now, data: view });
    return { alert: view, resolvedNow: true };
  });
  if (outcome.resolvedNow) logInfo('alert_resolved', { kioskId: outcome.alert.kioskId, kind: 'suspicious', alertId });
  return outcome.alert;
}
