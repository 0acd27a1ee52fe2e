import {
  Timestamp,
  type DocumentData,
  type DocumentReference,
  type DocumentSnapshot,
  type WriteBatch,
} from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { alertsCollection, newAlert, toAlertView } from '../data/alerts';
import { depositKioskFromSnapshot, kiosksCollection, placeFrom } from '../data/kiosks';
import { kioskWindowFromSnapshot, kioskWindowsCollection, stageKioskWindow } from '../data/kioskWindows';
import { transactionsCollection, visitFromSnapshot } from '../data/transactions';
import { storedLastDeposit } from '../data/users';
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
 * The limits of contract §17 as one award commit judges them (services/deposits.ts
 * awardToUser, recordAnonymous). Each figure a limit needs is read on the commit's fresh
 * reads, in its one getAll beside the user, and written back in the same commit under a
 * precondition, so concurrent awards count every recorded deposit once:
 * - the kiosk's items by minute: kioskWindows/{kioskId}, read (riskReads) and written
 *   only while `kioskItemsPerMinute` is set, guarded by its version (the kiosk's one hot document);
 * - the user's items by day: `itemsByDay` on the user, guarded with the user;
 * - the user's latest deposit by occurredAt: `lastDeposit` on the user, kept by every
 *   award (travel on or off), guarded with the user. Only a deposit older than it (an
 *   offline upload) needs the indexed query for the one before it, and only while
 *   `travelKmh` is set; its place comes with it (`kioskPlace` on the transaction).
 */

/** The limits at work in one commit, over the figures read for it. */
export interface RiskJudging {
  /** The holds reasons of `deposit` given the user as it stands before it (in this commit). */
  judge(deposit: Deposit, user: { suspended: boolean; itemsByDay: ItemsByDay }): HoldReason[];
  /** Counts `deposit` (held or not) in the figures the later deposits of this commit are judged on. */
  count(deposit: Deposit, reasons: HoldReason[]): void;
  /** Stages what the counting changed: the kiosks' windows and a `suspicious` alert each where one opens. */
  stage(batch: WriteBatch, now: Date): void;
  /** The user's fields the counting changed (`lastDeposit`), for the commit's update of the user. */
  userFigures(): DocumentData;
}

interface KioskPlace {
  location: Place | undefined;
}

/**
 * The documents the limits on need for `deposits` (each, if not recorded yet, judged on
 * its kiosk's limit), to be read in the award's own getAll: the kiosks' windows.
 */
export const riskReads = (limits: RiskConfig, deposits: Deposit[]): DocumentReference[] =>
  limits.kioskItemsPerMinute === null
    ? []
    : [...new Set(deposits.map(({ kioskId }) => kioskId))].map((kioskId) => kioskWindowsCollection().doc(kioskId));

/** Whose deposits are judged: a user (their `lastDeposit` as read), or none (a kiosk's anonymous deposits, §18). */
type Owner = { userId: string; lastDeposit: Visit | null | undefined } | undefined;

/** What the award read: its kiosks, and its getAll's snapshots (riskReads' among them). */
export interface RiskReads {
  kiosks: ReadonlyMap<string, KioskPlace | undefined>;
  snapshotOf: (ref: DocumentReference) => DocumentSnapshot | undefined;
}

/**
 * Starts judging, in the order they will be judged, the deposits of one owner not
 * recorded yet (`fresh`, judged on their kiosks' limit too) and the claims (§18) of
 * their recorded transactions. Reads nothing for a limit that is off; with travel on,
 * at most one indexed query per deposit older than the user's latest (an offline
 * upload), and for data recorded before the places were kept, what it lacks.
 */
export async function startRiskJudging(
  limits: RiskConfig,
  owner: Owner,
  { fresh, claimed }: { fresh: Deposit[]; claimed: { deposit: Deposit; recorded: DocumentSnapshot }[] },
  read: RiskReads,
  oldestAcceptedDay: string,
): Promise<RiskJudging> {
  const windows = new Map<string, { snap: DocumentSnapshot; window: ReturnType<typeof kioskWindowFromSnapshot> }>();
  for (const ref of riskReads(limits, fresh)) {
    const snap = read.snapshotOf(ref);
    if (!snap) throw new Error(`kioskWindows/${ref.id} was not read with the award`);
    windows.set(ref.id, { snap, window: kioskWindowFromSnapshot(snap) });
  }
  const counted = new Set<string>();
  const judgedOnKiosk = new Set(fresh);
  const storedPlaces = new Map<Deposit, Place | undefined>([
    ...fresh.map((deposit): [Deposit, Place | undefined] => [deposit, read.kiosks.get(deposit.kioskId)?.location]),
    ...claimed.map(({ deposit, recorded }): [Deposit, Place | undefined] => [
      deposit,
      placeFrom(recorded.get('kioskPlace')),
    ]),
  ]);
  const travel =
    limits.travelKmh !== null && owner !== undefined ? await travelReads(owner, storedPlaces, read) : undefined;
  const placeOf = (kioskId: string, stored: Place | undefined) => stored ?? travel?.places.get(kioskId);
  const visitOf = (deposit: Deposit): Visit => ({
    kioskId: deposit.kioskId,
    at: deposit.happenedAt,
    place: placeOf(deposit.kioskId, storedPlaces.get(deposit)),
  });
  /** This commit's deposits so far, for those after them. */
  const staged: Visit[] = [];
  /** The owner's latest deposit with those counted: undefined while not known (travel off on an old profile). */
  let latest = travel ? travel.latest : owner?.lastDeposit;
  const opening = new Map<string, string>();
  const keepFrom = minuteOf(new Date(`${oldestAcceptedDay}T00:00:00.000Z`)) - WINDOW_MINUTES;

  return {
    judge(deposit, user) {
      const items = deposit.plasticCount + deposit.metalCount;
      const window = judgedOnKiosk.has(deposit) ? windows.get(deposit.kioskId)?.window : undefined;
      const at = deposit.happenedAt;
      const before =
        travel &&
        [...staged, ...travel.recordedBefore(deposit)]
          .filter((visit) => visit.at.getTime() <= at.getTime())
          .sort((a, b) => b.at.getTime() - a.at.getTime())[0];
      return holdReasons(limits, {
        items,
        suspended: user.suspended,
        kioskWindowItems: window && itemsInWindow(window.minutes, minuteOf(at)),
        userDayItems: user.itemsByDay[utcDay(at)] ?? 0,
        travel: before && {
          previous: { ...before, place: placeOf(before.kioskId, before.place) },
          next: visitOf(deposit),
        },
      });
    },
    count(deposit, reasons) {
      const items = deposit.plasticCount + deposit.metalCount;
      const visit = visitOf(deposit);
      staged.push(visit);
      // Ties go to the later recorded: either is "the latest before" a deposit at that instant.
      if (latest !== undefined && (latest === null || visit.at.getTime() >= latest.at.getTime())) latest = visit;
      const held = judgedOnKiosk.has(deposit) ? windows.get(deposit.kioskId) : undefined;
      if (held) {
        counted.add(deposit.kioskId);
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
      for (const kioskId of counted) stageKioskWindow(batch, windows.get(kioskId)!.snap, windows.get(kioskId)!.window);
      for (const [kioskId, alertId] of opening) stageSuspiciousAlert(batch, kioskId, alertId, limits, now);
    },
    userFigures: () =>
      // Stored with its place when one was read for it (an old profile's), so it is not read again.
      owner && staged.length > 0 && latest
        ? { lastDeposit: storedLastDeposit({ ...latest, place: placeOf(latest.kioskId, latest.place) }) }
        : {},
  };
}

/** The user's items on each day with `deposit` counted, for the user's document. */
export const itemsByDayAfter = (byDay: ItemsByDay, deposit: Deposit, oldestAcceptedDay: string): ItemsByDay =>
  addItemsOnDay(byDay, deposit.happenedAt, deposit.plasticCount + deposit.metalCount, oldestAcceptedDay);

/**
 * What the travel limit reads for `deposits` (with their places as stored) of `owner`:
 * their latest deposit as recorded (`lastDeposit`, looked up once for a profile from
 * before it was kept), for each deposit older than it the one recorded before it (one
 * indexed query each, side by side), and the places none of these carry.
 */
async function travelReads(
  { userId, lastDeposit }: NonNullable<Owner>,
  deposits: ReadonlyMap<Deposit, Place | undefined>,
  read: RiskReads,
) {
  const latest = lastDeposit === undefined ? await latestVisit(userId) : lastDeposit;
  const older = latest === null ? [] : [...deposits.keys()].filter((deposit) => deposit.happenedAt < latest.at);
  const found = await Promise.all(
    older.map(async (deposit) => [deposit, await latestVisit(userId, deposit.happenedAt)] as const),
  );
  const before = new Map(found);
  const placeless = [
    ...[...deposits].filter(([, place]) => !place).map(([deposit]) => deposit.kioskId),
    ...[latest, ...before.values()].flatMap((visit) => (visit && !visit.place ? [visit.kioskId] : [])),
  ];
  return {
    latest,
    places: await placesOf(read.kiosks, placeless),
    /** The deposit recorded latest at or before `deposit`'s occurredAt (none in this commit), if any. */
    recordedBefore: (deposit: Deposit): Visit[] => {
      const visit = before.has(deposit) ? before.get(deposit) : latest;
      return visit ? [visit] : [];
    },
  };
}

/**
 * The user's latest deposit recorded (held ones included), or the latest at or before
 * `atOrBefore`: one indexed query (`userId`, `occurredAt` desc).
 */
async function latestVisit(userId: string, atOrBefore?: Date): Promise<Visit | null> {
  const mine = transactionsCollection().where('userId', '==', userId);
  const query = atOrBefore ? mine.where('occurredAt', '<=', Timestamp.fromDate(atOrBefore)) : mine;
  const snapshot = await query.orderBy('occurredAt', 'desc').limit(1).get();
  const doc: DocumentSnapshot | undefined = snapshot.docs[0];
  return (doc && visitFromSnapshot(doc)) ?? null;
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
