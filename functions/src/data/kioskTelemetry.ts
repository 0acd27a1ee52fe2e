import { Timestamp, type DocumentData, type DocumentSnapshot, type WriteBatch } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { type OpenAlerts } from '../domain/alerts';
import { isValidDocumentId } from '../domain/ids';
import { MATERIALS, type FillLevel, type Telemetry } from '../domain/telemetry';
import { ALERT_KINDS } from '../model/vocabulary';

/**
 * kioskTelemetry/{kioskId}: what a kiosk reports beyond its status, and the alerts
 * open for it. Not in kiosks/*, which anyone may read: only admins see telemetry
 * (GET /admin/kiosks), and no client reads this collection. Every change of a
 * kiosk's alerts commits with a write of this one document guarded by its version
 * as read (a transaction, or a `lastUpdateTime` precondition), which is what keeps
 * two alerts of one kind from being open at once.
 */
export const kioskTelemetryCollection = () => db().collection('kioskTelemetry');

export interface KioskTelemetryRecord extends Telemetry {
  openAlerts: OpenAlerts;
  /** The last status report that carried telemetry; null: none yet. */
  reportedAt: Date | null;
}

const percentOf = (value: unknown): number | null =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 100 ? (value as number) : null;
const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The record as stored, or nothing reported yet. What cannot be read (a hand edit)
 * counts as never reported, so it can never fail a kiosk's report.
 */
export function telemetryFromSnapshot(snapshot: DocumentSnapshot): KioskTelemetryRecord {
  const data = snapshot.data() ?? {};
  const fillLevel = Object.fromEntries(
    MATERIALS.map((material) => [material, percentOf(data.fillLevel?.[material])]),
  ) as FillLevel;
  const openAlerts: OpenAlerts = {};
  for (const kind of ALERT_KINDS) {
    const alertId: unknown = data.openAlerts?.[kind];
    if (typeof alertId === 'string' && isValidDocumentId(alertId)) openAlerts[kind] = alertId;
  }
  return {
    fillLevel,
    firmwareVersion: textOf(data.firmwareVersion),
    errorCode: textOf(data.errorCode),
    openAlerts,
    reportedAt: data.reportedAt instanceof Timestamp ? data.reportedAt.toDate() : null,
  };
}

/** A kioskTelemetry/{kioskId} document: the one place it is written out. */
export const telemetryDocument = (kioskId: string, record: KioskTelemetryRecord): DocumentData => ({
  kioskId,
  fillLevel: record.fillLevel,
  firmwareVersion: record.firmwareVersion,
  errorCode: record.errorCode,
  openAlerts: record.openAlerts,
  reportedAt: record.reportedAt && Timestamp.fromDate(record.reportedAt),
});

/**
 * Stages the record in an optimistic commit, guarded by the version `snapshot` read:
 * created where none existed, else updated only if unchanged since.
 */
export function stageTelemetry(
  batch: WriteBatch,
  snapshot: DocumentSnapshot,
  kioskId: string,
  record: KioskTelemetryRecord,
): void {
  const data = telemetryDocument(kioskId, record);
  if (snapshot.exists) batch.update(snapshot.ref, data, { lastUpdateTime: snapshot.updateTime! });
  else batch.create(snapshot.ref, data);
}

/** Every kiosk's record, by kiosk id. */
export async function allTelemetry(): Promise<Map<string, KioskTelemetryRecord>> {
  const snapshot = await kioskTelemetryCollection().get();
  return new Map(snapshot.docs.map((doc) => [doc.id, telemetryFromSnapshot(doc)]));
}
