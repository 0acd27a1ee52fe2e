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
import { FieldPath, type QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { commitOnFreshReads, db } from '../adapters/firestore';
import { stageWebhookEvent } from '../data/webhookEvents';
import type { PushTransport } from '../adapters/push';
import { expiryReminderId, expiryRemindersCollection, newExpiryReminder } from '../data/expiryReminders';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { pointsModel, userFromSnapshot, usersCollection } from '../data/users';
import {
  REMIND_DAYS_BEFORE,
  addDays,
  expiredThrough,
  expirePoints,
  expiryDay,
  nextExpiry,
  type Day,
  type Month,
} from '../domain/pointsExpiry';
import type { TimeBudget } from '../domain/timeBudget';
import { logError, logInfo } from '../log';
import { applyExpiryReminderEffects } from './expiryReminders';

/** Users read per page of the query. */
const PAGE = 200;
/** Users settled at once: each is one small commit, and its reminder's telling. */
const FAN_OUT = 16;

export interface ExpiryRunOutcome {
  asOf: Day;
  pointsExpireAfterMonths: number | null;
  /** Users whose oldest points expire within the reminder window: the only ones read. */
  usersRead: number;
  /** Users whose points expired in this run, and how many points in all. */
  expired: { users: number; points: number };
  /** Reminders created (each told once). */
  reminded: number;
  /** Users whose settling failed (logged); the next run takes them again. */
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
  afterMonths: number;
  /** Every month up to this one has expired on `asOf`. */
  expiredThrough: Month;
  /** The last day whose expiring points are reminded of on `asOf`. */
  remindThrough: Day;
}

/** The one `expire` entry of a user and date: two runs of one day, however concurrent, create one. */
export const expireEntryId = (userId: string, day: Day): string => `expire-${userId}-${day}`;

export async function runExpiry(asOf: Day, push: PushTransport, range: ExpiryRange = {}): Promise<ExpiryRunOutcome> {
  const { pointsExpireAfterMonths: afterMonths } = await loadRewardsConfig();
  const outcome: ExpiryRunOutcome = {
    asOf,
    pointsExpireAfterMonths: afterMonths,
    usersRead: 0,
    expired: { users: 0, points: 0 },
    reminded: 0,
    failed: 0,
  };
  if (afterMonths === null) return outcome;
  const remindThrough = addDays(asOf, REMIND_DAYS_BEFORE);
  const plan: RunPlan = { asOf, afterMonths, expiredThrough: expiredThrough(asOf, afterMonths), remindThrough };
  // A user whose oldest month is past this one has nothing expiring by `remindThrough` (expiry dates are
  // first days of months), so is never read.
  const dueThrough = expiredThrough(remindThrough, afterMonths);
  for await (const users of usersWithPointsThrough(dueThrough, range)) {
    const userIds = users.map(({ id }) => id);
    outcome.usersRead += userIds.length;
    for (let i = 0; i < userIds.length; i += FAN_OUT) {
      if (i > 0 && range.budget?.spent()) outcome.stoppedAfter = users[i - 1];
      if (outcome.stoppedAfter) break;
      const chunk = userIds.slice(i, i + FAN_OUT);
      const runs = await Promise.allSettled(chunk.map((userId) => settleUser(userId, plan, push)));
      runs.forEach((run, j) => {
        if (run.status === 'rejected') {
          outcome.failed++;
          const code = (run.reason as { code?: unknown })?.code;
          logError('points_expiry_user_failed', { userId: chunk[j], asOf, code, error: String(run.reason) });
          return;
        }
        if (run.value.expired > 0) {
          outcome.expired.users++;
          outcome.expired.points += run.value.expired;
        }
        if (run.value.reminded) outcome.reminded++;
      });
    }
    if (outcome.stoppedAfter) break;
    // A full page may have more after it: those are the next run's.
    if (users.length === PAGE && range.budget?.spent()) outcome.stoppedAfter = users.at(-1);
  }
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
 * One user on `plan.asOf`: the points of every month through `expiredThrough` leave
 * `currentPoints` and the model, with their `expire` entry (an id derived from user
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
  const entryRef = ledgerCollection().doc(expireEntryId(userId, plan.asOf));
  const settled = await commitOnFreshReads(async (batch) => {
    const [userSnap, entrySnap] = await db().getAll(userRef, entryRef);
    const user = userFromSnapshot(userSnap);
    const nothing = { expired: 0, reminded: false, toTell: undefined };
    if (!user) return { result: nothing, commit: false };
    const { expired, remaining } = entrySnap.exists
      ? { expired: 0, remaining: user.pointsByMonth }
      : expirePoints(user.pointsByMonth, plan.expiredThrough);
    // Never below 0, even where the model holds more than the balance (the audit reports that).
    const lowered = Math.min(expired, user.currentPoints);
    if (expired > 0) {
      const balanceAfter = user.currentPoints - lowered;
      batch.update(
        userRef,
        { currentPoints: balanceAfter, ...pointsModel(remaining) },
        { lastUpdateTime: userSnap.updateTime! },
      );
      if (lowered > 0) {
        const lastValidDay = addDays(expiryDay(plan.expiredThrough, plan.afterMonths), -1);
        const reason = `points added in ${plan.expiredThrough} or before, valid through ${lastValidDay}`;
        batch.create(entryRef, newLedgerEntry({ userId, kind: 'expire', points: -lowered, balanceAfter, reason }));
        // Its webhook event (§13) in the same commit: one event for the one entry.
        const at = new Date();
        stageWebhookEvent(batch, {
          type: 'points.expired',
          subjectId: entryRef.id,
          at,
          data: {
            id: entryRef.id,
            kind: 'expire',
            points: -lowered,
            balanceAfter,
            createdAt: at.toISOString(),
            reason,
            userId,
          },
        });
      }
    }
    const next = nextExpiry(remaining, plan.afterMonths);
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
      result: { expired: lowered, reminded: reminder?.created === true, toTell: reminder?.id },
      commit: expired > 0 || reminder?.created === true,
    };
  });
  if (settled.toTell !== undefined) await applyExpiryReminderEffects(settled.toTell, push);
  return settled;
}
