import { pushTransport } from '../adapters/push';
import { readSweepCursor, saveSweepCursor } from '../data/sweepCursors';
import type { Day } from '../domain/pointsExpiry';
import { utcDay } from '../domain/rewards';
import { timeBudget } from '../domain/timeBudget';
import { logInfo } from '../log';
import { runExpiry, type ExpiryRunOutcome, type UserPosition } from '../services/pointsExpiry';

/**
 * How long a scheduled run starts new work (domain/timeBudget.ts): a group of users
 * started just before it ends (services/pointsExpiry.ts FAN_OUT, side by side) takes at
 * most one settle's commit, 30 s, and its reminder's telling, 132 s (as the
 * expiryReminder's trigger, index.ts), so the run ends within 300 + 162 s, under the
 * function's 540 s timeout.
 */
export const EXPIRY_BUDGET_MS = 300_000;

/**
 * Where the day's run is (sweepCursors/pointsExpiry). A day's run starts where the
 * last day's stopped if that one did not finish (`from`), goes to the end of the
 * order, then from its start up to `from` (`wrapped`): every user once a day, the tail
 * of a long backlog never behind its head.
 */
interface ExpiryCursor {
  asOf: Day;
  from: UserPosition | null;
  at: UserPosition | null;
  wrapped: boolean;
  done: boolean;
}

/** What the scheduled run did this time: `continued` false when the day's run was already done. */
export type ScheduledExpiryOutcome = Omit<ExpiryRunOutcome, 'stoppedAfter'> & { continued: boolean; done: boolean };

const added = (sum: ScheduledExpiryOutcome, part: ExpiryRunOutcome): ScheduledExpiryOutcome => ({
  ...sum,
  pointsExpireAfterMonths: part.pointsExpireAfterMonths,
  usersRead: sum.usersRead + part.usersRead,
  expired: { users: sum.expired.users + part.expired.users, points: sum.expired.points + part.expired.points },
  reminded: sum.reminded + part.reminded,
  failed: sum.failed + part.failed,
});

/**
 * The scheduled expiry run (hourly at :05 UTC, index.ts): the day's run (contract §14)
 * starts at 00:05 and goes on, within its time budget (`budgetMs`), each hour after
 * until it has gone through every user with points due; once done, the day's other
 * hours read one document. The functions emulator runs no schedules (firebase-tools
 * issue 2034), so `admin expiry:run` runs the same service for any day (all of it in
 * one go), `npm start` runs this on a timer, and the tests run it through
 * firebase-functions-test.
 */
export async function runDailyExpiry({
  budgetMs = EXPIRY_BUDGET_MS,
  now = new Date(),
}: { budgetMs?: number; now?: Date } = {}): Promise<ScheduledExpiryOutcome> {
  const asOf = utcDay(now);
  const stored = (await readSweepCursor('pointsExpiry')) as ExpiryCursor | undefined;
  let outcome: ScheduledExpiryOutcome = {
    asOf,
    pointsExpireAfterMonths: null,
    usersRead: 0,
    expired: { users: 0, points: 0 },
    reminded: 0,
    retried: 0,
    failed: 0,
    continued: false,
    done: true,
  };
  if (stored?.asOf === asOf && stored.done) return outcome;
  const from = stored && !stored.done ? stored.at : null;
  const cursor: ExpiryCursor = stored?.asOf === asOf ? stored : { asOf, from, at: from, wrapped: false, done: false };
  const budget = timeBudget(budgetMs);
  const push = pushTransport();
  do {
    const part = await runExpiry(asOf, push, {
      after: cursor.at ?? undefined,
      before: cursor.wrapped ? (cursor.from ?? undefined) : undefined,
      budget,
    });
    outcome = added(outcome, part);
    if (part.stoppedAfter) cursor.at = part.stoppedAfter;
    else if (!cursor.wrapped && cursor.from) Object.assign(cursor, { wrapped: true, at: null });
    else cursor.done = true;
  } while (!cursor.done && !budget.spent());
  await saveSweepCursor('pointsExpiry', cursor);
  outcome = { ...outcome, continued: true, done: cursor.done };
  logInfo('points_expiry_scheduled', { ...outcome });
  return outcome;
}
