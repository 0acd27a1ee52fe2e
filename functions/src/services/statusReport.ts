import { commitOnFreshReads, db } from '../adapters/firestore';
import { logAlertTransitions, stageAlertTransitions } from '../data/alerts';
import { kiosksCollection, stageKioskStatus } from '../data/kiosks';
import { kioskTelemetryCollection, stageTelemetry, telemetryFromSnapshot } from '../data/kioskTelemetry';
import { REPORTED_KINDS, alertTransitions, telemetryConditions, type AlertTransitions } from '../domain/alerts';
import type { KioskRecord } from '../domain/kiosk';
import { mergeTelemetry, reportsTelemetry } from '../domain/telemetry';
import type { KioskStatusBody } from '../model/requestBodies';

/** A status report as the kiosk sends it (POST /kiosk/{id}/status): the body its schema accepts. */
export type StatusReport = KioskStatusBody;

const NO_TRANSITIONS: AlertTransitions = { open: [], resolve: [] };

/**
 * A kiosk's status report, in one atomic commit: the status on kiosks/{id}; with
 * telemetry, also the telemetry merged into kioskTelemetry/{id} and the `bin-full`
 * and `error` alerts opened or resolved as it changes them. The telemetry document
 * is written only if unchanged since it was read (optimistic: no lock, so a burst of
 * reports never deadlocks); a report that lost the race reads again and judges the
 * alerts against what the winner left, so two are never open of one kind. A kiosk
 * that is gone or cannot be shown fails the report before anything is written.
 */
export async function applyStatusReport(
  kioskId: string,
  report: StatusReport,
  fillAlertPercent: number,
): Promise<KioskRecord> {
  const kioskRef = kiosksCollection().doc(kioskId);
  const telemetryRef = kioskTelemetryCollection().doc(kioskId);
  const withTelemetry = reportsTelemetry(report);
  const outcome = await commitOnFreshReads(async (batch) => {
    const [kioskSnap, telemetrySnap] = await db().getAll(kioskRef, ...(withTelemetry ? [telemetryRef] : []));
    const kiosk = stageKioskStatus(batch, kioskSnap, report.status);
    if (!withTelemetry) return { result: { kiosk, transitions: NO_TRANSITIONS, openAlerts: {} }, commit: true };
    const now = new Date();
    const stored = telemetryFromSnapshot(telemetrySnap);
    const telemetry = mergeTelemetry(stored, report);
    const holding = telemetryConditions(telemetry, fillAlertPercent);
    const transitions = alertTransitions(stored.openAlerts, holding, REPORTED_KINDS);
    const openAlerts = await stageAlertTransitions(db(), batch, kioskId, stored.openAlerts, transitions, now);
    stageTelemetry(batch, telemetrySnap, kioskId, { ...telemetry, openAlerts, reportedAt: now });
    return { result: { kiosk, transitions, openAlerts }, commit: true };
  });
  logAlertTransitions(kioskId, outcome.transitions, outcome.openAlerts);
  return outcome.kiosk;
}
