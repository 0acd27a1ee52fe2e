/** How the console writes dates and figures: the browser's locale, times in its time zone. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const number = new Intl.NumberFormat();

export const formatDateTime = (iso: string | null | undefined, missing = 'Never'): string =>
  iso ? dateTime.format(new Date(iso)) : missing;

export const formatNumber = (value: number): string => number.format(value);

const utcDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
/** The UTC day of `iso`, for dates the service counts in UTC days (when points expire). */
export const formatUtcDate = (iso: string): string => `${utcDate.format(new Date(iso))} (UTC)`;

export const formatSigned = (value: number): string => (value > 0 ? '+' : '') + number.format(value);

export const formatPercent = (value: number | null): string => (value === null ? '—' : `${value}%`);

/** A word at the start of a sentence. */
export const capitalized = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export const formatFill = (fill: { plastic: number | null; metal: number | null }): string =>
  `${formatPercent(fill.plastic)} / ${formatPercent(fill.metal)}`;

/** YYYY-MM-DD of a UTC day: the report's days are UTC days. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The UTC day `days` after (negative: before) the day given as YYYY-MM-DD. */
export const addDays = (day: string, days: number): string =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));

/** Every day from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
