import { Timestamp } from 'firebase-admin/firestore';
import { logWarn } from '../log';
import { commitOnFreshReads, db } from '../adapters/firestore';
import { logAlertTransitions, stageAlertTransitions } from '../data/alerts';
import { kioskPresence, kiosksCollection } from '../data/kiosks';
import { kioskTelemetryCollection, stageTelemetry, telemetryFromSnapshot } from '../data/kioskTelemetry';
import { alertTransitions, type AlertTransitions, type OpenAlerts } from '../domain/alerts';
import { livenessWriteDue } from '../domain/liveness';

interface Seen {
  written: boolean;
  lastSeenAt: Date;
  /** The silent alert resolved, if one was. */
  transitions?: AlertTransitions;
  openAlerts?: OpenAlerts;
}

/**
 * Writes the kiosk's lastSeenAt = `now` unless the stored value is under a minute
 * old, and resolves the kiosk's open `silent` alert with it (a silent kiosk's
 * lastSeenAt is always older than that). Returns whether it wrote and the lastSeenAt
 * stored afterwards. Optimistic: the write is guarded by the kiosk document's
 * version as read, so of instances racing for one kiosk one writes and the others,
 * reading again, find its value and write nothing.
 */
export async function recordKioskSeen(kioskId: string, now: Date): Promise<{ written: boolean; lastSeenAt: Date }> {
  const kioskRef = kiosksCollection().doc(kioskId);
  const telemetryRef = kioskTelemetryCollection().doc(kioskId);
  const outcome = await commitOnFreshReads<Seen>(async (batch) => {
    const [kioskSnap, telemetrySnap] = await db().getAll(kioskRef, telemetryRef);
    const presence = kioskPresence(kioskSnap);
    // A key whose kiosk was deleted: nothing to record, and no reason to look again soon.
    if (!presence) return { result: { written: false, lastSeenAt: now }, commit: false };
    if (!livenessWriteDue(presence.lastSeenAt, now)) {
      return { result: { written: false, lastSeenAt: presence.lastSeenAt! }, commit: false };
    }
    batch.update(kioskRef, { lastSeenAt: Timestamp.fromDate(now) }, { lastUpdateTime: kioskSnap.updateTime! });
    const telemetry = telemetryFromSnapshot(telemetrySnap);
    const transitions = alertTransitions(telemetry.openAlerts, {}, ['silent']);
    if (transitions.resolve.length === 0) return { result: { written: true, lastSeenAt: now }, commit: true };
    const openAlerts = await stageAlertTransitions(db(), batch, kioskId, telemetry.openAlerts, transitions, now);
    stageTelemetry(batch, telemetrySnap, kioskId, { ...telemetry, openAlerts });
    return { result: { written: true, lastSeenAt: now, transitions, openAlerts }, commit: true };
  });
  if (outcome.transitions) logAlertTransitions(kioskId, outcome.transitions, outcome.openAlerts ?? {});
  return { written: outcome.written, lastSeenAt: outcome.lastSeenAt };
}

/**
 * An instance's side of the liveness throttle. It remembers, per kiosk, the
 * lastSeenAt it last knew to be stored, and asks Firestore only when that is a
 * minute old: most kiosk requests cost nothing, and the first one of each minute
 * per instance pays one read (and, once a minute in all, the write). Concurrent
 * requests of one kiosk on this instance share that check.
 */
export class LivenessRecorder {
  private readonly known = new Map<string, Date>();
  private readonly pending = new Map<string, Promise<'fresh' | 'written'>>();

  async record(kioskId: string, now = new Date()): Promise<'skipped' | 'fresh' | 'written'> {
    if (!livenessWriteDue(this.known.get(kioskId) ?? null, now)) return 'skipped';
    let pending = this.pending.get(kioskId);
    if (!pending) {
      pending = recordKioskSeen(kioskId, now)
        .then(({ written, lastSeenAt }) => {
          this.known.set(kioskId, lastSeenAt);
          return written ? ('written' as const) : ('fresh' as const);
        })
        .finally(() => this.pending.delete(kioskId));
      this.pending.set(kioskId, pending);
    }
    return pending;
  }
}

const recorder = new LivenessRecorder();

/**
 * Records that a request with a valid key of `kioskId` arrived. Never fails the
 * request: a failed write is logged, and the kiosk's next request tries again.
 */
export async function noteKioskSeen(kioskId: string): Promise<void> {
  try {
    await recorder.record(kioskId);
  } catch (error) {
    logWarn('kiosk_liveness_failed', { kioskId, code: (error as { code?: unknown })?.code });
  }
}
