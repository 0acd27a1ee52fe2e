import { FieldPath, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { logInfo, logWarn } from '../log';
import { db, type StagedReads, type StagedWrites } from '../adapters/firestore';
import { isAlertKind, type AlertState, type AlertTransitions, type OpenAlerts } from '../domain/alerts';
import type { Position } from '../domain/cursor';
import { isValidDocumentId } from '../domain/ids';
import { effectsPending } from './pendingEffects';
import { stageWebhookEvent } from './webhookEvents';
import type { AlertView } from '../model/fleetViews';
import type { AlertKind } from '../model/vocabulary';

/** alerts/{alertId}: one document per alert, open until `resolvedAt` is set. No client reads them. */
export const alertsCollection = () => db().collection('alerts');

export interface AlertRecord {
  id: string;
  kioskId: string;
  kind: AlertKind;
  openedAt: Date;
  resolvedAt: Date | null;
  detail: string;
}

/** An alert as the API shows it: times as ISO 8601 UTC. */
export type { AlertView };

export const toAlertView = (alert: AlertRecord): AlertView => ({
  id: alert.id,
  kioskId: alert.kioskId,
  kind: alert.kind,
  openedAt: alert.openedAt.toISOString(),
  resolvedAt: alert.resolvedAt?.toISOString() ?? null,
  detail: alert.detail,
});

/** An alerts/{alertId} document as first stored: open. The one place one is written out. */
export const newAlert = (kioskId: string, kind: AlertKind, detail: string, openedAt: Date): DocumentData => ({
  kioskId,
  kind,
  detail,
  openedAt: Timestamp.fromDate(openedAt),
  resolvedAt: null,
  ...effectsPending,
});

/**
 * Stages, after the caller's other reads and before its writes, the opening and
 * resolving of the alerts `transitions` names, and returns the open alerts after
 * them for the caller to store on the kiosk's telemetry document in the same commit,
 * guarded there (a transaction, or a `lastUpdateTime` precondition). An alert to
 * resolve is read first: one deleted by hand is only forgotten, never recreated.
 */
export async function stageAlertTransitions(
  reads: StagedReads,
  writes: StagedWrites,
  kioskId: string,
  open: OpenAlerts,
  transitions: AlertTransitions,
  now: Date,
): Promise<OpenAlerts> {
  const after: OpenAlerts = { ...open };
  const resolving = transitions.resolve.map(({ alertId }) => alertsCollection().doc(alertId));
  const stored = resolving.length > 0 ? await reads.getAll(...resolving) : [];
  transitions.resolve.forEach(({ kind, alertId }, i) => {
    const alert = stored[i].exists ? alertFromSnapshot(stored[i]) : undefined;
    if (stored[i].exists) writes.update(resolving[i], { resolvedAt: Timestamp.fromDate(now) });
    else logWarn('alert_document_missing', { kioskId, kind, alertId });
    // Once per alert: one already resolved (a stale open list) is not announced again.
    if (alert && alert.resolvedAt === null) {
      const data = toAlertView({ ...alert, resolvedAt: now });
      stageWebhookEvent(writes, { type: 'alert.resolved', subjectId: alertId, at: now, data });
    }
    delete after[kind];
  });
  for (const { kind, detail } of transitions.open) {
    const ref = alertsCollection().doc();
    writes.create(ref, newAlert(kioskId, kind, detail, now));
    const data = toAlertView({ id: ref.id, kioskId, kind, detail, openedAt: now, resolvedAt: null });
    stageWebhookEvent(writes, { type: 'alert.opened', subjectId: ref.id, at: now, data });
    after[kind] = ref.id;
  }
  return after;
}

/** The alert as stored; undefined (and logged) when a field is missing or malformed. */
export function alertFromSnapshot(doc: DocumentSnapshot): AlertRecord | undefined {
  const data = doc.data() ?? {};
  const { kioskId, kind, detail, openedAt, resolvedAt } = data;
  if (
    typeof kioskId !== 'string' ||
    !isAlertKind(kind) ||
    typeof detail !== 'string' ||
    !(openedAt instanceof Timestamp) ||
    !(resolvedAt === null || resolvedAt instanceof Timestamp)
  ) {
    logWarn('alert_document_invalid', { alertId: doc.id });
    return undefined;
  }
  return { id: doc.id, kioskId, kind, detail, openedAt: openedAt.toDate(), resolvedAt: resolvedAt?.toDate() ?? null };
}

/**
 * One page of alerts, newest first (then by id), starting after `after`; `next` is
 * the position to resume from, or null on the last page. A document broken by hand
 * is logged and left out.
 */
export async function listAlerts(
  state: AlertState,
  limit: number,
  after: Position | undefined,
): Promise<{ alerts: AlertRecord[]; next: Position | null }> {
  let query = state === 'open' ? alertsCollection().where('resolvedAt', '==', null) : alertsCollection();
  query = query.orderBy('openedAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
  if (after) query = query.startAfter(new Timestamp(after.seconds, after.nanoseconds), after.id);
  const docs = (await query.limit(limit + 1).get()).docs;
  const page = docs.slice(0, limit);
  const last = page.at(-1);
  const lastOpenedAt = last?.get('openedAt');
  const next =
    docs.length > limit && lastOpenedAt instanceof Timestamp
      ? { seconds: lastOpenedAt.seconds, nanoseconds: lastOpenedAt.nanoseconds, id: last!.id }
      : null;
  return { alerts: page.flatMap((doc) => alertFromSnapshot(doc) ?? []), next };
}

/** The open alerts of one kind, by kiosk id (the silent sweep's second look). */
export async function kiosksWithOpenAlert(kind: AlertKind): Promise<string[]> {
  const snapshot = await alertsCollection().where('kind', '==', kind).where('resolvedAt', '==', null).get();
  return snapshot.docs.flatMap((doc) => {
    const kioskId: unknown = doc.get('kioskId');
    return typeof kioskId === 'string' && isValidDocumentId(kioskId) ? [kioskId] : [];
  });
}

/** Logs what a commit on a kiosk's alerts did, once it landed. */
export function logAlertTransitions(kioskId: string, transitions: AlertTransitions, openAlerts: OpenAlerts): void {
  for (const { kind } of transitions.open) logInfo('alert_opened', { kioskId, kind, alertId: openAlerts[kind] });
  for (const { kind, alertId } of transitions.resolve) logInfo('alert_resolved', { kioskId, kind, alertId });
}
