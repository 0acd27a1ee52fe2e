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

/** The next date on which some of these points expire, and how many: the oldest month's. */
export interface NextExpiry {
  points: number;
  /** Its first day on which they are no longer valid. */
  day: Day;
}

/** Null when points never expire (`afterMonths` null) or there are none. */
export function nextExpiry(points: PointsByMonth, afterMonths: number | null): NextExpiry | null {
  const oldest = oldestMonth(points);
  if (afterMonths === null || oldest === null) return null;
  return { points: points[oldest], day: expiryDay(oldest, afterMonths) };
}
