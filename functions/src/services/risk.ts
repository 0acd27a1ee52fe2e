import { Timestamp, type DocumentSnapshot, type WriteBatch } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { alertsCollection, newAlert, toAlertView } from '../data/alerts';
import { depositKioskFromSnapshot, kiosksCollection } from '../data/kiosks';
import { kioskWindowFromSnapshot, kioskWindowsCollection, stageKioskWindow } from '../data/kioskWindows';
import { transactionsCollection } from '../data/transactions';
import { stageWebhookEvent } from '../data/webhookEvents';
import type { Deposit } from '../domain/deposit';
import {
  addItemsOnDay,
  addToBuckets,
  holdReasons,
  itemsInWindow,
  minuteOf,
  WINDOW_MINUTES,
  type ItemsByDay,
  type Place,
  type RiskConfig,
  type Visit,
} from '../domain/risk';
import { utcDay } from '../domain/rewards';
import { logWarn } from '../log';
import type { HoldReason } from '../model/trustVocabulary';

/*
 * The limits of contract §17 as one user's award commit judges them (services/deposits.ts
 * awardToUser). Each figure a limit needs is read on the commit's fresh reads and
 * written back in the same commit under a precondition, so concurrent awards count
 * every recorded deposit once:
 * - the kiosk's items by minute: kioskWindows/{kioskId}, read and written only while
 *   `kioskItemsPerMinute` is set, guarded by its version (the kiosk's one hot document);
 * - the user's items by day: `itemsByDay` on the user, guarded with the user;
 * - the user's previous deposit: one indexed query per new deposit while `travelKmh`
 *   is set; a concurrent deposit of the user changes the user, so the commit reads again.
 */

/** The limits at work in one commit, over the figures read for it. */
export interface RiskJudging {
  /** The holds reasons of `deposit` given the user as it stands before it (in this commit). */
  judge(deposit: Deposit, user: { suspended: boolean; itemsByDay: ItemsByDay }): HoldReason[];
  /** Counts `deposit` (held or not) in the figures the later deposits of this commit are judged on. */
  count(deposit: Deposit, reasons: HoldReason[]): void;
  /** Stages what the counting changed: the kiosks' windows and a `suspicious` alert each where one opens. */
  stage(batch: WriteBatch, now: Date): void;
}

interface KioskPlace {
  location: Place | undefined;
}

/**
 * Reads what the limits on need for `deposits` (not recorded yet) of one user: the
 * kiosks' windows, the user's previous deposits and the places of their kiosks.
 * Nothing is read for a limit that is off.
 */
export async function startRiskJudging(
  limits: RiskConfig,
  userId: string,
  deposits: Deposit[],
  kiosks: ReadonlyMap<string, KioskPlace | undefined>,
  oldestAcceptedDay: string,
): Promise<RiskJudging> {
  const kioskIds = [...new Set(deposits.map(({ kioskId }) => kioskId))];
  const windowSnaps =
    limits.kioskItemsPerMinute !== null && kioskIds.length > 0
      ? await db().getAll(...kioskIds.map((kioskId) => kioskWindowsCollection().doc(kioskId)))
      : [];
  const windows = new Map(windowSnaps.map((snap) => [snap.id, { snap, window: kioskWindowFromSnapshot(snap) }]));
  const previous = limits.travelKmh !== null ? await previousVisits(userId, deposits) : [];
  // A claim's kiosk (§18) is not among those read for the award: read with the previous deposits' when travel needs it.
  const places = await placesOf(
    kiosks,
    previous.length > 0 ? [...previous.map(({ visit }) => visit.kioskId), ...kioskIds] : [],
  );
  const visitOf = (kioskId: string, at: Date): Visit => ({ kioskId, at, place: places.get(kioskId) });
  /** This commit's deposits so far, for those after them. */
  const staged: Visit[] = [];
  const opening = new Map<string, string>();
  const keepFrom = minuteOf(new Date(`${oldestAcceptedDay}T00:00:00.000Z`)) - WINDOW_MINUTES;

  return {
    judge(deposit, user) {
      const items = deposit.plasticCount + deposit.metalCount;
      const window = windows.get(deposit.kioskId)?.window;
      const at = deposit.happenedAt;
      const before = [...staged, ...previous.filter((visit) => visit.after === deposit).map(({ visit }) => visit)]
        .filter((visit) => visit.at.getTime() <= at.getTime())
        .sort((a, b) => b.at.getTime() - a.at.getTime())[0];
      const reasons = holdReasons(limits, {
        items,
        suspended: user.suspended,
        kioskWindowItems: window && itemsInWindow(window.minutes, minuteOf(at)),
        userDayItems: user.itemsByDay[utcDay(at)] ?? 0,
        travel: before && { previous: visitOf(before.kioskId, before.at), next: visitOf(deposit.kioskId, at) },
      });
      return reasons;
    },
    count(deposit, reasons) {
      const items = deposit.plasticCount + deposit.metalCount;
      staged.push(visitOf(deposit.kioskId, deposit.happenedAt));
      const held = windows.get(deposit.kioskId);
      if (held) {
        const minutes = addToBuckets(held.window.minutes, minuteOf(deposit.happenedAt), items, keepFrom);
        held.window = { ...held.window, minutes };
        if (reasons.includes('kiosk-throughput') && held.window.suspiciousAlertId === null) {
          const alertId = alertsCollection().doc().id;
          held.window = { ...held.window, suspiciousAlertId: alertId };
          opening.set(deposit.kioskId, alertId);
        }
      }
    },
    stage(batch, now) {
      for (const { snap, window } of windows.values()) stageKioskWindow(batch, snap, window);
      for (const [kioskId, alertId] of opening) stageSuspiciousAlert(batch, kioskId, alertId, limits, now);
    },
  };
}

/** The user's items on each day with `deposit` counted, for the user's document. */
export const itemsByDayAfter = (byDay: ItemsByDay, deposit: Deposit, oldestAcceptedDay: string): ItemsByDay =>
  addItemsOnDay(byDay, deposit.happenedAt, deposit.plasticCount + deposit.metalCount, oldestAcceptedDay);

/**
 * For each deposit, the user's latest deposit recorded at or before its `occurredAt`
 * (held ones included): one indexed query each, none when travel is off.
 */
async function previousVisits(userId: string, deposits: Deposit[]): Promise<{ after: Deposit; visit: Visit }[]> {
  const found = await Promise.all(
    deposits.map(async (deposit) => {
      const snapshot = await transactionsCollection()
        .where('userId', '==', userId)
        .where('occurredAt', '<=', Timestamp.fromDate(deposit.happenedAt))
        .orderBy('occurredAt', 'desc')
        .limit(1)
        .get();
      const doc: DocumentSnapshot | undefined = snapshot.docs[0];
      const at: unknown = doc?.get('occurredAt');
      if (!doc || !(at instanceof Timestamp)) return [];
      return [{ after: deposit, visit: { kioskId: String(doc.get('kioskId')), at: at.toDate(), place: undefined } }];
    }),
  );
  return found.flat();
}

/** The places of `kioskIds`: those of `kiosks` as read already, the others read now, once each. */
async function placesOf(
  kiosks: ReadonlyMap<string, KioskPlace | undefined>,
  kioskIds: string[],
): Promise<Map<string, Place | undefined>> {
  const places = new Map([...kiosks].map(([kioskId, kiosk]) => [kioskId, kiosk?.location]));
  const missing = [...new Set(kioskIds)].filter((kioskId) => !places.has(kioskId));
  if (missing.length === 0) return places;
  const snaps = await db().getAll(...missing.map((kioskId) => kiosksCollection().doc(kioskId)));
  for (const snap of snaps) {
    const place = depositKioskFromSnapshot(snap)?.location;
    // A kiosk without a place (deleted, or broken by hand) never makes a trip impossible: said, not guessed.
    if (!place) logWarn('risk_kiosk_without_place', { kioskId: snap.id });
    places.set(snap.id, place);
  }
  return places;
}

/** Opens a kiosk's `suspicious` alert (pushed to the operators by its trigger, announced by webhook). */
function stageSuspiciousAlert(batch: WriteBatch, kioskId: string, alertId: string, limits: RiskConfig, now: Date) {
  const detail = `More than ${WINDOW_MINUTES * limits.kioskItemsPerMinute!} items in ${WINDOW_MINUTES} minutes: points held for review`;
  batch.create(alertsCollection().doc(alertId), newAlert(kioskId, 'suspicious', detail, now));
  const data = toAlertView({ id: alertId, kioskId, kind: 'suspicious', detail, openedAt: now, resolvedAt: null });
  stageWebhookEvent(batch, { type: 'alert.opened', subjectId: alertId, at: now, data });
}
