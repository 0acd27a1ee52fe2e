import { logError } from '../log';
import { runTransaction } from '../adapters/firestore';
import { kiosksWithOpenAlert, logAlertTransitions, stageAlertTransitions } from '../data/alerts';
import { availableKiosksUnseenSince, kioskPresence, kiosksCollection } from '../data/kiosks';
import { kioskTelemetryCollection, telemetryDocument, telemetryFromSnapshot } from '../data/kioskTelemetry';
import { alertTransitions, silentConditions, type AlertTransitions } from '../domain/alerts';
import { timeBudget, type TimeBudget } from '../domain/timeBudget';

export interface SweepOutcome {
  /** Kiosks judged: available and unseen for the window without a silent alert open, or the other way round. */
  checked: number;
  /** Kiosks left when the time budget ran out: the next sweep judges them. */
  unfinished: number;
  opened: number;
  resolved: number;
  /** Kiosks whose transaction failed (logged); the next sweep judges them again. */
  failed: number;
}

/** Kiosks judged at once: each is one small transaction. */
const SWEEP_CONCURRENCY = 8;

/**
 * The `silent` alert of one kiosk judged in a Firestore transaction on its telemetry
 * document: opened when the kiosk is silent and none is open, resolved when one is
 * open and it no longer is (its status is no longer `available`, or it was deleted;
 * a kiosk that is seen again resolves its own alert). Concurrent sweeps serialise
 * on that document, so they never open two.
 */
async function judgeSilence(kioskId: string, now: Date, onlineMinutes: number): Promise<AlertTransitions> {
  const kioskRef = kiosksCollection().doc(kioskId);
  const telemetryRef = kioskTelemetryCollection().doc(kioskId);
  const outcome = await runTransaction(async (tx) => {
    const [kioskSnap, telemetrySnap] = await tx.getAll(kioskRef, telemetryRef);
    const presence = kioskPresence(kioskSnap);
    const telemetry = telemetryFromSnapshot(telemetrySnap);
    const holding = presence?.status
      ? silentConditions({ status: presence.status, lastSeenAt: presence.lastSeenAt }, now, onlineMinutes)
      : {};
    const transitions = alertTransitions(telemetry.openAlerts, holding, ['silent']);
    if (transitions.open.length === 0 && transitions.resolve.length === 0) {
      return { transitions, openAlerts: telemetry.openAlerts };
    }
    const openAlerts = await stageAlertTransitions(tx, tx, kioskId, telemetry.openAlerts, transitions, now);
    tx.set(telemetryRef, telemetryDocument(kioskId, { ...telemetry, openAlerts }));
    return { transitions, openAlerts };
  });
  logAlertTransitions(kioskId, outcome.transitions, outcome.openAlerts);
  return outcome.transitions;
}

/**
 * Opens a `silent` alert for every available kiosk unseen for `onlineMinutes` (a
 * kiosk never seen is not silent), and resolves those whose kiosk stopped being
 * silent without being seen. Reads only the kiosks that may be silent and the open
 * silent alerts, never the whole fleet, and judges only the kiosks where the two
 * differ: a silent kiosk whose alert is open has nothing to change. So each kiosk
 * judged leaves the work, and a sweep whose `budget` ran out (it starts no batch
 * after) leaves the rest to the next, which starts with them.
 */
export async function sweepSilentKiosks(
  now: Date,
  onlineMinutes: number,
  budget: TimeBudget = timeBudget(Number.POSITIVE_INFINITY),
): Promise<SweepOutcome> {
  const cutoff = new Date(now.getTime() - onlineMinutes * 60_000);
  const [unseen, alerted] = await Promise.all([availableKiosksUnseenSince(cutoff), kiosksWithOpenAlert('silent')]);
  const [unseenIds, alertedIds] = [new Set(unseen), new Set(alerted)];
  const kioskIds = [
    ...[...unseenIds].filter((kioskId) => !alertedIds.has(kioskId)),
    ...[...alertedIds].filter((kioskId) => !unseenIds.has(kioskId)),
  ];
  const outcome: SweepOutcome = { checked: 0, unfinished: 0, opened: 0, resolved: 0, failed: 0 };
  for (let i = 0; i < kioskIds.length; i += SWEEP_CONCURRENCY) {
    const batch = kioskIds.slice(i, i + SWEEP_CONCURRENCY);
    outcome.checked += batch.length;
    const judged = await Promise.allSettled(batch.map((kioskId) => judgeSilence(kioskId, now, onlineMinutes)));
    judged.forEach((result, j) => {
      if (result.status === 'fulfilled') {
        outcome.opened += result.value.open.length;
        outcome.resolved += result.value.resolve.length;
        return;
      }
      outcome.failed++;
      logError('silent_sweep_kiosk_failed', { kioskId: batch[j], code: (result.reason as { code?: unknown })?.code });
    });
    if (budget.spent()) {
      outcome.unfinished = kioskIds.length - outcome.checked;
      break;
    }
  }
  return outcome;
}
