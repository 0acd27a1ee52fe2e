/**
 * Points that expire (contract §14): points added in a month are valid through the
 * last day (UTC) of the month N months later, and spending takes the points that
 * expire soonest first.
 *
 * A user's spendable points are kept by the month they were added (`YYYY-MM` →
 * points). Every month's points expire after the same N months, so the oldest month
 * is always the soonest to expire, whatever N is: spending from the oldest month
 * first is "soonest-expiring first", and a change of N needs no rewrite of any user.
 */

/** A calendar month in UTC, `YYYY-MM`. */
export type Month = string;
/** A day in UTC, `YYYY-MM-DD`. */
export type Day = string;

/** The spendable points by the month they were added; what is spent or expired is gone from it. */
export type PointsByMonth = Readonly<Record<Month, number>>;

export const MIN_EXPIRE_AFTER_MONTHS = 1;
export const MAX_EXPIRE_AFTER_MONTHS = 120;
/** How long before a date on which points expire the user is reminded of it. */
export const REMIND_DAYS_BEFORE = 30;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const isMonth = (value: string): boolean => MONTH.test(value);

export const monthOf = (instant: Date): Month => instant.toISOString().slice(0, 7);

/** `YYYY-MM-DD` as the UTC day it names, or undefined when it is no such day (2027-02-30). */
export function parseDay(text: string): Date | undefined {
  if (!DAY.test(text)) return undefined;
  const instant = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 10) === text ? instant : undefined;
}

export function addMonths(month: Month, count: number): Month {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + count;
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, '0')}-${String(index - year * 12 + 1).padStart(2, '0')}`;
}

export function addDays(day: Day, count: number): Day {
  const instant = new Date(`${day}T00:00:00.000Z`);
  instant.setUTCDate(instant.getUTCDate() + count);
  return instant.toISOString().slice(0, 10);
}

/**
 * The first day on which points added in `added` are no longer valid: the day after
 * the last day of the month `afterMonths` later. They expire at its start (00:00 UTC).
 */
export const expiryDay = (added: Month, afterMonths: number): Day => `${addMonths(added, afterMonths + 1)}-01`;

/** The newest month whose points are no longer valid on `day`: every month up to it has expired. */
export const expiredThrough = (day: Day, afterMonths: number): Month => addMonths(day.slice(0, 7), -(afterMonths + 1));

/** The months that hold points, oldest (soonest to expire) first. */
export const monthsOf = (points: PointsByMonth): Month[] =>
  Object.keys(points)
    .filter((month) => points[month] > 0)
    .sort();

export const oldestMonth = (points: PointsByMonth): Month | null => monthsOf(points)[0] ?? null;

export const sumOf = (points: PointsByMonth): number => monthsOf(points).reduce((sum, m) => sum + points[m], 0);

/**
 * A change of the spendable balance by `delta` on the model: points added (`delta` > 0)
 * count in `month`; points spent are taken from the oldest months first. Spending
 * more than the model holds empties it (the audit reports a model out of step).
 */
export function changePoints(points: PointsByMonth, delta: number, month: Month): PointsByMonth {
  const next: Record<Month, number> = {};
  for (const held of monthsOf(points)) next[held] = points[held];
  if (delta > 0) {
    next[month] = (next[month] ?? 0) + delta;
    return next;
  }
  let owed = -delta;
  for (const held of monthsOf(next)) {
    if (owed === 0) break;
    const taken = Math.min(owed, next[held]);
    owed -= taken;
    if (taken === next[held]) delete next[held];
    else next[held] -= taken;
  }
  return next;
}

/** The points of every month through `through` (expired), and what remains. */
export function expirePoints(points: PointsByMonth, through: Month): { expired: number; remaining: PointsByMonth } {
  let expired = 0;
  const remaining: Record<Month, number> = {};
  for (const month of monthsOf(points)) {
    if (month <= through) expired += points[month];
    else remaining[month] = points[month];
  }
  return { expired, remaining };
}

/**
 * When points expire: after `afterMonths`, and never before `notBefore`, the day 30
 * days after the setting was last set or lowered (contract Part four): every date
 * that a change brings nearer still gets its reminder. Null where points never expire.
 */
export interface ExpiryRule {
  afterMonths: number;
  notBefore: Day | null;
}

/** The first day on which the points added in `added` are no longer valid under `rule`. */
export function expiresOn(added: Month, rule: ExpiryRule): Day {
  const own = expiryDay(added, rule.afterMonths);
  return rule.notBefore !== null && rule.notBefore > own ? rule.notBefore : own;
}

/** The points no longer valid on `day` under `rule` (expired), and what remains. */
export function expireOn(
  points: PointsByMonth,
  day: Day,
  rule: ExpiryRule,
): { expired: number; remaining: PointsByMonth } {
  // Before `notBefore` nothing expires; from it on, every month whose own date has come.
  if (rule.notBefore !== null && day < rule.notBefore) return { expired: 0, remaining: points };
  return expirePoints(points, expiredThrough(day, rule.afterMonths));
}

/**
 * `notBefore` after `pointsExpireAfterMonths` changes from `before` to `after` on
 * `today`: set (from never) or lowered, nothing expires in the next 30 days; raised or
 * unset, the dates only move later, and an earlier change's `notBefore` stays.
 */
export function notBeforeAfterChange(
  before: number | null,
  after: number | null,
  notBefore: Day | null,
  today: Day,
): Day | null {
  if (after === null || (before !== null && after >= before)) return notBefore;
  const floor = addDays(today, REMIND_DAYS_BEFORE);
  return notBefore !== null && notBefore > floor ? notBefore : floor;
}

/** The next date on which some of these points expire, and how many. */
export interface NextExpiry {
  points: number;
  /** Its first day on which they are no longer valid. */
  day: Day;
}

/**
 * Null when points never expire (`rule` null) or there are none. The oldest month's
 * date, with every month that expires on it too (`notBefore` gathers several).
 */
export function nextExpiry(points: PointsByMonth, rule: ExpiryRule | null): NextExpiry | null {
  const oldest = oldestMonth(points);
  if (rule === null || oldest === null) return null;
  const day = expiresOn(oldest, rule);
  const due = monthsOf(points).filter((month) => expiresOn(month, rule) === day);
  return { points: due.reduce((sum, month) => sum + points[month], 0), day };
}
