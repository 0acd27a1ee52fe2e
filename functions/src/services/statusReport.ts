import { runTransaction } from '../adapters/firestore';
import { logAlertTransitions, stageAlertTransitions } from '../data/alerts';
import { kiosksCollection, stageKioskStatus } from '../data/kiosks';
import { kioskTelemetryCollection, telemetryDocument, telemetryFromSnapshot } from '../data/kioskTelemetry';
import { REPORTED_KINDS, alertTransitions, telemetryConditions } from '../domain/alerts';
import type { KioskRecord, KioskStatus } from '../domain/kiosk';
import { mergeTelemetry, reportsTelemetry, type TelemetryReport } from '../domain/telemetry';

export interface StatusReport extends TelemetryReport {
  status: KioskStatus;
}

/**
 * A kiosk's status report, in one Firestore transaction: the status on kiosks/{id};
 * with telemetry, also the telemetry merged into kioskTelemetry/{id} and the
 * `bin-full` and `error` alerts opened or resolved as it changes them. Concurrent
 * reports of one kiosk serialise on its telemetry document, so each one judges the
 * alerts against what the previous one left: never two open of one kind.
 */
export async function applyStatusReport(
  kioskId: string,
  report: StatusReport,
  fillAlertPercent: number,
): Promise<KioskRecord> {
  const kioskRef = kiosksCollection().doc(kioskId);
  if (!reportsTelemetry(report)) {
    return runTransaction(async (tx) => stageKioskStatus(tx, await tx.get(kioskRef), report.status));
  }
  const telemetryRef = kioskTelemetryCollection().doc(kioskId);
  const outcome = await runTransaction(async (tx) => {
    const [kioskSnap, telemetrySnap] = await tx.getAll(kioskRef, telemetryRef);
    const now = new Date();
    const stored = telemetryFromSnapshot(telemetrySnap);
    const telemetry = mergeTelemetry(stored, report);
    const holding = telemetryConditions(telemetry, fillAlertPercent);
    const transitions = alertTransitions(stored.openAlerts, holding, REPORTED_KINDS);
    // Reads first (the alerts to resolve), then every write; a kiosk that is gone or
    // cannot be shown throws here and the whole transaction writes nothing.
    const openAlerts = await stageAlertTransitions(tx, kioskId, stored.openAlerts, transitions, now);
    const kiosk = stageKioskStatus(tx, kioskSnap, report.status);
    tx.set(telemetryRef, telemetryDocument(kioskId, { ...telemetry, openAlerts, reportedAt: now }));
    return { kiosk, transitions, openAlerts };
  });
  logAlertTransitions(kioskId, outcome.transitions, outcome.openAlerts);
  return outcome.kiosk;
}
