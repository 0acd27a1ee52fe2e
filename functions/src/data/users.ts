import {
  FieldValue,
  Timestamp,
  type DocumentData,
  type DocumentSnapshot,
  type UpdateData,
} from 'firebase-admin/firestore';
import { commitOnFreshReads, contention, db, runTransaction } from '../adapters/firestore';
import { expiryRuleOf, rankFor, utcDay, type EarningsByDay, type RewardsConfig } from '../domain/rewards';
import {
  changePoints,
  expireOn,
  isMonth,
  monthOf,
  nextExpiry,
  oldestMonth,
  type PointsByMonth,
} from '../domain/pointsExpiry';
import { createKeyedQueue } from '../domain/keyedQueue';
import type { ItemsByDay, Visit } from '../domain/risk';
import { ApiError, overloaded } from '../errors';
import { placeFrom, storedPlace } from './kiosks';
import { effectsPending } from './pendingEffects';
import { newPushTokenHolder, pushTokenHolderRef } from './pushTokens';
import { rewardsConfigFromSnapshot, rewardsConfigRef } from './rewardsConfig';
import type { UserView } from '../model/views';

export const usersCollection = () => db().collection('users');

/** What a new profile may start with: an import or the demo data bring points, a sign-up none. */
export interface NewProfile {
  name: string;
  currentPoints?: number;
  totalPoints?: number;
  recycledCount?: number;
  pushToken?: string;
  /** Made for an Auth account (provisioning, the demo seed): the users sweep erases it once that account is gone. */
  authAccount?: true;
}

/**
 * A users/{id} document as first stored; the one place a profile is written out. The
 * stored `rank` is what `totalPoints` reaches under `rewards` now (views derive it
 * again on every read).
 */
export function newProfile(profile: NewProfile, rewards: RewardsConfig): DocumentData {
  const totalPoints = profile.totalPoints ?? 0;
  const currentPoints = profile.currentPoints ?? 0;
  return {
    name: profile.name,
    currentPoints,
    ...pointsModel(changePoints({}, currentPoints, monthOf(new Date()))),
    totalPoints,
    recycledCount: profile.recycledCount ?? 0,
    rank: rankFor(rewards, totalPoints),
    createdAt: FieldValue.serverTimestamp(),
    ...(profile.pushToken && { pushToken: profile.pushToken, pushTokenUpdatedAt: FieldValue.serverTimestamp() }),
    ...(profile.authAccount && { authAccount: true }),
  };
}

/**
 * The update that erases a person from their users/{id} document (contract §15), the
 * one place it is written out: what names or reaches them goes (name, push token, what
 * they earned day by day), the balance is 0 (the erasure's `forfeit` entry writes it
 * off), `totalPoints` and `recycledCount` stay for the books, and `erasedAt` marks the
 * id as erased for good: no route or award finds the user, nothing provisions it again.
 * `effectsPending` marks the erasure unfinished until the effects sweep has deleted the
 * notifications again (services/erasure.ts finishErasure).
 */
export const erasedProfile = (): UpdateData<DocumentData> => ({
  name: FieldValue.delete(),
  pushToken: FieldValue.delete(),
  pushTokenUpdatedAt: FieldValue.delete(),
  earnedByDay: FieldValue.delete(),
  itemsByDay: FieldValue.delete(),
  lastDeposit: FieldValue.delete(),
  currentPoints: 0,
  // No points left to expire: the forfeit wrote them all off.
  ...zeroedPointsModel(),
  erasedAt: FieldValue.serverTimestamp(),
  ...effectsPending,
});

/**
 * The update that records, on an erased profile, that its Auth account is deleted: the
 * `authAccount` mark stays through the erasure's commit until then, so the users sweep
 * finds an account an interrupted erasure left behind (services/erasure.ts).
 */
export const accountGone = (): UpdateData<DocumentData> => ({ authAccount: FieldValue.delete() });

/** A users/{id} document kept for the books after its person was erased. */
export const isErasedProfile = (snapshot: DocumentSnapshot): boolean => snapshot.get('erasedAt') !== undefined;

/** What a profile is named after when the account brings no name: the e-mail's local part, else a placeholder. */
export function profileName(account: { displayName?: string; email?: string }): string {
  const displayName = account.displayName?.trim();
  if (displayName) return displayName;
  const localPart = account.email?.split('@')[0]?.trim();
  return localPart || 'Recycler';
}

/**
 * No profile under this id: a 404 that says which user it is about, so that the
 * user's own first request can provision the profile and go on (services/provisioning.ts).
 */
export class ProfileNotFound extends ApiError {
  constructor(readonly userId: string) {
    super('not-found', `User ${userId} not found`);
  }
}

export interface UserRecord {
  id: string;
  name: string;
  currentPoints: number;
  totalPoints: number;
  recycledCount: number;
  pushToken?: string;
  earnedByDay: EarningsByDay;
  /** `currentPoints` by the month they were added (domain/pointsExpiry.ts). */
  pointsByMonth: PointsByMonth;
  /** The points of the user's open holds (contract §17). */
  heldPoints: number;
  /** Suspended by an operator: every deposit's points are held. */
  suspended: boolean;
  /** Items deposited per UTC day of `occurredAt`, for the daily items limit (domain/risk.ts). */
  itemsByDay: ItemsByDay;
  /** Latest deposit by `occurredAt` (travel, §17): null if none; undefined if unknown (services/risk.ts finds it). */
  lastDeposit: Visit | null | undefined;
}

/** The public shape of a user: never the token itself. */
export type { UserView };

/** The user of a profile; none where there is no profile, or only an erased one (kept for the books). */
export function userFromSnapshot(snapshot: DocumentSnapshot): UserRecord | undefined {
  const data = snapshot.data();
  if (!data || isErasedProfile(snapshot)) return undefined;
  return {
    id: snapshot.id,
    name: data.name ?? '',
    currentPoints: data.currentPoints ?? 0,
    totalPoints: data.totalPoints ?? 0,
    recycledCount: data.recycledCount ?? 0,
    pushToken: typeof data.pushToken === 'string' && data.pushToken.length > 0 ? data.pushToken : undefined,
    earnedByDay: earningsOf(data),
    pointsByMonth: pointsByMonthOf(data),
    heldPoints: isPoints(data.heldPoints) ? data.heldPoints : 0,
    suspended: data.suspension !== undefined && data.suspension !== null,
    itemsByDay: countsByDayOf(data.itemsByDay),
    lastDeposit: lastDepositOf(data),
  };
}

/** `lastDeposit` as stored; unknown on a profile with items from before it was kept (each deposit counts an item). */
function lastDepositOf(data: DocumentData): Visit | null | undefined {
  const stored: unknown = data.lastDeposit;
  if (stored !== null && typeof stored === 'object' && 'occurredAt' in stored && 'kioskId' in stored) {
    const { kioskId, occurredAt, place } = stored as Record<string, unknown>;
    if (typeof kioskId === 'string' && occurredAt instanceof Timestamp) {
      return { kioskId, at: occurredAt.toDate(), place: placeFrom(place) };
    }
  }
  return isPoints(data.recycledCount) && data.recycledCount > 0 ? undefined : null;
}

/** `lastDeposit` as the award's commit stores it on the user (its place, when known, so no kiosk is read for it). */
export const storedLastDeposit = ({ kioskId, at, place }: Visit): DocumentData => ({
  kioskId,
  occurredAt: Timestamp.fromDate(at),
  ...(place && { place: storedPlace(place) }),
});

/**
 * The user's spendable points by the month they were added, as stored. A profile from
 * before the model was kept holds none: its whole balance counts as added in the
 * month it is first read (`migrate` stamps that month on every such profile, so
 * that the expiry run finds them).
 */
export function pointsByMonthOf(data: DocumentData, now = new Date()): PointsByMonth {
  const stored: unknown = data.pointsByMonth;
  if (stored === null || typeof stored !== 'object') {
    return changePoints({}, isPoints(data.currentPoints) ? data.currentPoints : 0, monthOf(now));
  }
  const byMonth: Record<string, number> = {};
  for (const [month, points] of Object.entries(stored)) if (isMonth(month) && isPoints(points)) byMonth[month] = points;
  return byMonth;
}

/**
 * The stored fields of the model of a user's points (domain/pointsExpiry.ts): every
 * write that changes `currentPoints` writes them in the same commit. The oldest
 * month is what the expiry run queries on (null: no points, never matched).
 */
export const pointsModel = (pointsByMonth: PointsByMonth): DocumentData => ({
  pointsByMonth: { ...pointsByMonth },
  pointsOldestMonth: oldestMonth(pointsByMonth),
});

/** The model of a balance written off whole (no points left to spend or expire): staged with `currentPoints: 0`. */
export const zeroedPointsModel = (): DocumentData => pointsModel({});

export const isPoints = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Points earned per UTC day, as stored (`earnedByDay`); what is not a count of points is left out. */
export const earningsOf = (data: DocumentData): Record<string, number> => countsByDayOf(data.earnedByDay);

/** A count per UTC day as stored (`earnedByDay`, `itemsByDay`); what is not a count is left out. */
function countsByDayOf(byDay: unknown): Record<string, number> {
  const counts: Record<string, number> = {};
  if (byDay !== null && typeof byDay === 'object') {
    for (const [day, count] of Object.entries(byDay)) if (isPoints(count)) counts[day] = count;
  }
  return counts;
}

/**
 * The rank is derived from `totalPoints` under the thresholds configured now, never
 * read from the document: the stored `rank` is what they gave at the last award.
 */
export const toUserView = (user: UserRecord, rewards: RewardsConfig): UserView => ({
  id: user.id,
  name: user.name,
  currentPoints: user.currentPoints,
  totalPoints: user.totalPoints,
  recycledCount: user.recycledCount,
  rank: rankFor(rewards, user.totalPoints),
  hasPushToken: user.pushToken !== undefined,
  expiringPoints: expiringPointsOf(user.pointsByMonth, rewards),
  heldPoints: user.heldPoints,
  suspended: user.suspended,
});

/**
 * The next date on which some of the user's points expire: when (its first instant) and
 * how many. Never a day in the past: points past their date that the expiry run has not
 * written off yet (it runs at 00:05 UTC, and takes a user it failed again) are no longer
 * valid, and the next spend writes them off first (services/pointsExpiry.ts stageDueExpiry).
 */
function expiringPointsOf(pointsByMonth: PointsByMonth, rewards: RewardsConfig): UserView['expiringPoints'] {
  const rule = expiryRuleOf(rewards);
  const valid = rule === null ? pointsByMonth : expireOn(pointsByMonth, utcDay(new Date()), rule).remaining;
  const next = nextExpiry(valid, rule);
  return next && { points: next.points, expiresAt: `${next.day}T00:00:00.000Z` };
}

/**
 * A user's view reads the user and the rank thresholds in one batched read: the rank
 * shown is derived under the thresholds configured now, at no added round trip.
 */
export async function getUserView(userId: string): Promise<UserView> {
  const [userSnap, rewardsSnap] = await db().getAll(usersCollection().doc(userId), rewardsConfigRef());
  const user = userFromSnapshot(userSnap);
  if (!user) throw new ProfileNotFound(userId);
  return toUserView(user, rewardsConfigFromSnapshot(rewardsSnap));
}

export async function getUser(userId: string): Promise<UserRecord> {
  const user = userFromSnapshot(await usersCollection().doc(userId).get());
  if (!user) throw new ProfileNotFound(userId);
  return user;
}

/**
 * Registrations of one token commit one at a time within this instance (a queue per token hash, as awards to one
 * user: services/deposits.ts): each reads and writes the token's holder document, so at once they would only make
 * each other read again. Across instances the preconditions decide (docs/decisions.md).
 */
const oneAtATimePerToken = createKeyedQueue();

/**
 * A device token belongs to one account at a time: registering it here removes it
 * from whoever had it before (a shared phone that changed accounts). The holder is
 * found by one point read (data/pushTokens.ts), and the user's previous token, if any,
 * no longer names them.
 *
 * Written under preconditions on what was read (commitOnFreshReads), not in a
 * transaction: the holder document of a token many phones register at once is hot, and
 * transactions on it held each other's locks until the contention deadline (15 of 16
 * registrations at once were 503 on the emulator); without locks one wins each round and
 * the others read again.
 */
export async function registerPushToken(userId: string, token: string): Promise<UserView> {
  const arrivedAt = Date.now();
  const ref = usersCollection().doc(userId);
  const holderRef = pushTokenHolderRef(token);
  return oneAtATimePerToken(holderRef.id, () => {
    // Waiting longer than contention may last is overload: given up before anything is read or written.
    if (Date.now() - arrivedAt > contention.deadlineMs) throw overloaded();
    return commitOnFreshReads(async (batch) => {
      const [userSnap, rewardsSnap, holderSnap] = await db().getAll(ref, rewardsConfigRef(), holderRef);
      const user = userFromSnapshot(userSnap);
      if (!user) throw new ProfileNotFound(userId);
      const previousHolder: unknown = holderSnap.get('userId');
      if (typeof previousHolder === 'string' && previousHolder !== userId) {
        const previous = await usersCollection().doc(previousHolder).get();
        if (previous.get('pushToken') === token) {
          const cleared = { pushToken: FieldValue.delete(), pushTokenUpdatedAt: FieldValue.serverTimestamp() };
          batch.update(previous.ref, cleared, { lastUpdateTime: previous.updateTime! });
        }
      }
      if (user.pushToken !== undefined && user.pushToken !== token) batch.delete(pushTokenHolderRef(user.pushToken));
      if (holderSnap.exists) {
        batch.update(holderRef, newPushTokenHolder(userId), { lastUpdateTime: holderSnap.updateTime! });
      } else batch.create(holderRef, newPushTokenHolder(userId));
      const registered = { pushToken: token, pushTokenUpdatedAt: FieldValue.serverTimestamp() };
      batch.update(ref, registered, { lastUpdateTime: userSnap.updateTime! });
      return {
        result: toUserView({ ...user, pushToken: token }, rewardsConfigFromSnapshot(rewardsSnap)),
        commit: true,
      };
    });
  });
}

export async function removePushToken(userId: string): Promise<UserView> {
  const ref = usersCollection().doc(userId);
  return runTransaction(async (tx) => {
    const [userSnap, rewardsSnap] = await tx.getAll(ref, rewardsConfigRef());
    const user = userFromSnapshot(userSnap);
    if (!user) throw new ProfileNotFound(userId);
    if (user.pushToken !== undefined) tx.delete(pushTokenHolderRef(user.pushToken));
    tx.update(ref, { pushToken: FieldValue.delete(), pushTokenUpdatedAt: FieldValue.serverTimestamp() });
    return toUserView({ ...user, pushToken: undefined }, rewardsConfigFromSnapshot(rewardsSnap));
  });
}

/**
 * Forgets a token the push provider reported unregistered, wherever it is still
 * stored, unless the user registered a new one meanwhile. A rare path (the provider's
 * answer to a send), so it looks the holders up by a query, outside any transaction,
 * and clears each in a transaction of its own document only.
 */
export async function forgetPushToken(token: string): Promise<number> {
  const holders = await usersCollection().where('pushToken', '==', token).get();
  let forgotten = 0;
  for (const holder of holders.docs) {
    forgotten += await runTransaction(async (tx) => {
      const [fresh, holderSnap] = await tx.getAll(holder.ref, pushTokenHolderRef(token));
      if (fresh.get('pushToken') !== token) return 0;
      if (holderSnap.get('userId') === holder.id) tx.delete(holderSnap.ref);
      tx.update(holder.ref, { pushToken: FieldValue.delete(), pushTokenUpdatedAt: FieldValue.serverTimestamp() });
      return 1;
    });
  }
  return forgotten;
}
