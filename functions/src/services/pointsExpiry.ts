/**
 * The expiry run (contract §14): for one UTC day, expires every user's points past
 * their date (one `expire` ledger entry per user and date) and reminds each user 30
 * days before a date on which some of their points expire (once per date). The daily
 * scheduled function and `admin expiry:run [--as-of]` are this same code.
 *
 * It reads only the users who have points expiring within the reminder window: the
 * oldest month that still holds points is stored on the user (`pointsOldestMonth`,
 * data/users.ts pointsModel) and queried with a range, page by page (flat memory),
 * each page's users settled side by side. A million users with nothing due cost
 * nothing; what it reads grows with what expires.
 */
import { FieldPath, type DocumentSnapshot, type QueryDocumentSnapshot, type Timestamp } from 'firebase-admin/firestore';
import { commitOnFreshReads, db, type StagedWrites } from '../adapters/firestore';
import { stageWebhookEvent } from '../data/webhookEvents';
import type { PushTransport } from '../adapters/push';
import { expiryReminderId, expiryRemindersCollection, newExpiryReminder } from '../data/expiryReminders';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { pointsModel, userFromSnapshot, usersCollection, type UserRecord } from '../data/users';
import {
  REMIND_DAYS_BEFORE,
  addDays,
  expireOn,
  expiredThrough,
  expiresOn,
  nextExpiry,
  type Day,
  type ExpiryRule,
  type Month,
} from '../domain/pointsExpiry';
import { expiryRuleOf } from '../domain/rewards';
import type { TimeBudget } from '../domain/timeBudget';
import { logError, logInfo, logWarn } from '../log';
import { applyExpiryReminderEffects } from './expiryReminders';

/** Users read per page of the query. */
const PAGE = 200;
/** Users settled at once: each is one small commit, and its reminder's telling. */
const FAN_OUT = 16;
/**
 * How often a run takes again the users whose settling failed, after a pause: a
 * failure left to the next day's run would leave their expired points spendable and
 * their reminder untold for 24 h.
 */
const RETRY_ROUNDS = 2;
const RETRY_PAUSE_MS = 1000;

export interface ExpiryRunOutcome {
  asOf: Day;
  pointsExpireAfterMonths: number | null;
  /** Users whose oldest points expire within the reminder window: the only ones read. */
  usersRead: number;
  /** Users whose points expired in this run, and how many points in all. */
  expired: { users: number; points: number };
  /** Reminders created (each told once). */
  reminded: number;
  /** Users whose settling failed and was taken again in this run (`failed` counts those that failed every time). */
  retried: number;
  /** Users whose settling failed in every round (logged); the next run takes them again. */
  failed: number;
  /** The last user settled when the time budget ran out (the range's end not reached), else absent. */
  stoppedAfter?: UserPosition;
}

/** A user's place in the run's order: their oldest month with points, then their id. */
export interface UserPosition {
  month: Month;
  id: string;
}

/**
 * The part of the run's order to go through (all of it by default): after `after`,
 * before `before`, starting no new group of users once `budget` is spent. The
 * scheduled run continues from where it stopped (triggers/pointsExpiry.ts).
 */
export interface ExpiryRange {
  after?: UserPosition;
  before?: UserPosition;
  budget?: TimeBudget;
}

/** What one run does, the same for every user. */
interface RunPlan {
  asOf: Day;
  rule: ExpiryRule;
  /** The last day whose expiring points are reminded of on `asOf`. */
  remindThrough: Day;
}

/** The one `expire` entry of a user and date: two runs of one day, however concurrent, create one. */
export const expireEntryId = (userId: string, day: Day): string => `expire-${userId}-${day}`;

/** The `expire` entry a run or a spend on `day` writes for `userId`: read it with the user. */
export const expireEntryRef = (userId: string, day: Day) => ledgerCollection().doc(expireEntryId(userId, day));

/** A user after stageDueExpiry, and what it wrote off. */
export interface DueExpiry {
  user: UserRecord;
  /** The points of the model that expired (0: nothing to write for the user). */
  expired: number;
  /** What left `currentPoints`: `expired`, never more than the balance. */
  lowered: number;
}

/**
 * Stages in the caller's commit the expiry of `user`'s points no longer valid on `day`:
 * the `expire` entry under the id the run of `day` uses (`entrySnap`, read with the
 * user: when it exists that day's expiry is written already) and its `points.expired`
 * event. The run and every spend (contract Part four: expired points are never spent)
 * call this, so whichever commits first writes the entry and the other writes nothing
 * more. Returns the user as they are after it; the caller stages the user's update once,
 * with whatever else its commit changes, guarded by the user's update time.
 * `createdAt`: the entry's time where the caller orders its own entry after it.
 */
export function stageDueExpiry(
  writes: StagedWrites,
  user: UserRecord,
  entrySnap: DocumentSnapshot,
  day: Day,
  rule: ExpiryRule | null,
  createdAt?: Timestamp,
): DueExpiry {
  if (rule === null || entrySnap.exists) return { user, expired: 0, lowered: 0 };
  const { expired, remaining } = expireOn(user.pointsByMonth, day, rule);
  // Never below 0, even where the model holds more than the balance (the audit reports that).
  const lowered = Math.min(expired, user.currentPoints);
  const balanceAfter = user.currentPoints - lowered;
  if (lowered > 0) {
    const through: Month = expiredThrough(day, rule.afterMonths);
    const lastValidDay = addDays(expiresOn(through, rule), -1);
    const reason = `points added in ${through} or before, valid through ${lastValidDay}`;
    writes.create(
      entrySnap.ref,
      newLedgerEntry({ userId: user.id, kind: 'expire', points: -lowered, balanceAfter, reason, createdAt }),
    );
    // Its webhook event (§13) in the same commit: one event for the one entry.
    const at = createdAt?.toDate() ?? new Date();
    stageWebhookEvent(writes, {
      type: 'points.expired',
      subjectId: entrySnap.id,
      at,
      data: {
        id: entrySnap.id,
        kind: 'expire',
        points: -lowered,
        balanceAfter,
        createdAt: at.toISOString(),
        reason,
        userId: user.id,
      },
    });
  }
  return { user: { ...user, currentPoints: balanceAfter, pointsByMonth: remaining }, expired, lowered };
}

export async function runExpiry(asOf: Day, push: PushTransport, range: ExpiryRange = {}): Promise<ExpiryRunOutcome> {
  const config = await loadRewardsConfig();
  const outcome: ExpiryRunOutcome = {
    asOf,
    pointsExpireAfterMonths: config.pointsExpireAfterMonths,
    usersRead: 0,
    expired: { users: 0, points: 0 },
    reminded: 0,
    retried: 0,
    failed: 0,
  };
  const rule = expiryRuleOf(config);
  if (rule === null) return outcome;
  const remindThrough = addDays(asOf, REMIND_DAYS_BEFORE);
  const plan: RunPlan = { asOf, rule, remindThrough };
  /**
   * Settles `users` side by side, FAN_OUT at a time; returns those whose settling failed (logged). The first round
   * starts no new group once the budget is spent (`outcome.stoppedAfter` then names the last user taken); the
   * retries of this run's failures are always made.
   */
  const settleAll = async (users: UserPosition[], round: number): Promise<UserPosition[]> => {
    const failed: UserPosition[] = [];
    for (let i = 0; i < users.length; i += FAN_OUT) {
      if (round === 0 && i > 0 && range.budget?.spent()) outcome.stoppedAfter = users[i - 1];
      if (round === 0 && outcome.stoppedAfter) break;
      const chunk = users.slice(i, i + FAN_OUT);
      const runs = await Promise.allSettled(chunk.map(({ id }) => settleUser(id, plan, push)));
      runs.forEach((run, j) => {
        if (run.status === 'rejected') {
          failed.push(chunk[j]);
          const code = (run.reason as { code?: unknown })?.code;
          // An error once no round is left: a failure taken again in this run is a warning.
          const log = round === RETRY_ROUNDS ? logError : logWarn;
          log('points_expiry_user_failed', { userId: chunk[j].id, asOf, round, code, error: String(run.reason) });
          return;
        }
        if (run.value.expired > 0) {
          outcome.expired.users++;
          outcome.expired.points += run.value.expired;
        }
        if (run.value.reminded) outcome.reminded++;
      });
    }
    return failed;
  };
  // A user whose oldest month is past this one has nothing expiring by `remindThrough` (every date is at
  // or after the oldest month's own), so is never read.
  const dueThrough = expiredThrough(remindThrough, rule.afterMonths);
  let failed: UserPosition[] = [];
  for await (const users of usersWithPointsThrough(dueThrough, range)) {
    outcome.usersRead += users.length;
    failed.push(...(await settleAll(users, 0)));
    if (outcome.stoppedAfter) break;
    // A full page may have more after it: those are the next run's.
    if (users.length === PAGE && range.budget?.spent()) outcome.stoppedAfter = users.at(-1);
  }
  // Each retry settles what the failed attempt did not (an attempt commits whole or not at all).
  for (let round = 1; round <= RETRY_ROUNDS && failed.length > 0; round++) {
    if (round === 1) outcome.retried = failed.length;
    logWarn('points_expiry_retrying', { asOf, round, users: failed.length });
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * round));
    failed = await settleAll(failed, round);
  }
  outcome.failed = failed.length;
  logInfo('points_expiry_run', { ...outcome });
  return outcome;
}

/** The users holding points added in `month` or before within `range`, a page at a time, by that month then id. */
async function* usersWithPointsThrough(month: Month, range: ExpiryRange): AsyncGenerator<UserPosition[]> {
  let query = usersCollection()
    .where('pointsOldestMonth', '<=', month)
    .orderBy('pointsOldestMonth')
    .orderBy(FieldPath.documentId())
    .select('pointsOldestMonth');
  if (range.before) query = query.endBefore(range.before.month, range.before.id);
  const positionOf = (doc: QueryDocumentSnapshot): UserPosition => ({
    month: doc.get('pointsOldestMonth'),
    id: doc.id,
  });
  let page = await (range.after ? query.startAfter(range.after.month, range.after.id) : query).limit(PAGE).get();
  while (!page.empty) {
    yield page.docs.map(positionOf);
    if (page.size < PAGE) return;
    page = await query.startAfter(page.docs.at(-1)!).limit(PAGE).get();
  }
}

/**
 * One user on `plan.asOf`: the points no longer valid that day leave `currentPoints`
 * and the model, with their `expire` entry (stageDueExpiry: an id derived from user
 * and date), in one commit guarded by the user's update time, so it happens once
 * however often or concurrently the run goes; `totalPoints` and the rank stay. Then,
 * when the user's next expiry date is within the reminder window, that date's
 * reminder is created (once: its id is derived from user and date) and told.
 */
async function settleUser(
  userId: string,
  plan: RunPlan,
  push: PushTransport,
): Promise<{ expired: number; reminded: boolean }> {
  const userRef = usersCollection().doc(userId);
  const entryRef = expireEntryRef(userId, plan.asOf);
  const settled = await commitOnFreshReads(async (batch) => {
    const [userSnap, entrySnap] = await db().getAll(userRef, entryRef);
    const user = userFromSnapshot(userSnap);
    const nothing = { expired: 0, reminded: false, toTell: undefined };
    if (!user) return { result: nothing, commit: false };
    const due = stageDueExpiry(batch, user, entrySnap, plan.asOf, plan.rule);
    const remaining = due.user.pointsByMonth;
    if (due.expired > 0) {
      batch.update(
        userRef,
        { currentPoints: due.user.currentPoints, ...pointsModel(remaining) },
        { lastUpdateTime: userSnap.updateTime! },
      );
    }
    const next = nextExpiry(remaining, plan.rule);
    let reminder: { id: string; created: boolean } | undefined;
    if (next && next.day <= plan.remindThrough) {
      const reminderRef = expiryRemindersCollection().doc(expiryReminderId(userId, next.day));
      const stored = await reminderRef.get();
      if (!stored.exists) {
        batch.create(reminderRef, newExpiryReminder({ userId, expiresOn: next.day, points: next.points }));
        reminder = { id: reminderRef.id, created: true };
      } else if (!stored.get('effects.completedAt')) reminder = { id: reminderRef.id, created: false };
    }
    return {
      result: { expired: due.lowered, reminded: reminder?.created === true, toTell: reminder?.id },
      commit: due.expired > 0 || reminder?.created === true,
    };
  });
  if (settled.toTell !== undefined) await applyExpiryReminderEffects(settled.toTell, push);
  return settled;
}
