import { badRequest } from '../errors';
import { utcDay } from './rewards';
import type { KioskDayRow } from '../model/fleetViews';

/** One kiosk's figures of one UTC day (contract §7, daily reports). */
export interface KioskDayFigures {
  transactions: number;
  plasticCount: number;
  metalCount: number;
  points: number;
}

/** A row of the daily report (its schema is the source). */
export type { KioskDayRow };

/** The longest report, in days, `from` and `to` included. */
export const MAX_REPORT_DAYS = 92;

const DAY_MS = 86_400_000;

/** A YYYY-MM-DD that names a real calendar day, as its first instant (UTC); undefined otherwise. */
export function parseDay(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const date = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || utcDay(date) !== text ? undefined : date;
}

function requiredDay(name: 'from' | 'to', text: string | undefined): Date {
  if (text === undefined) throw badRequest(`${name} is required: a UTC day as YYYY-MM-DD`);
  const day = parseDay(text);
  if (!day) throw badRequest(`${name} must be a calendar day as YYYY-MM-DD, e.g. 2026-11-23`);
  return day;
}

/** `from` and `to` of a report (both included), checked: real days, in order, at most MAX_REPORT_DAYS. */
export function reportRange(query: { from?: string; to?: string }): { from: string; to: string } {
  const from = requiredDay('from', query.from);
  const to = requiredDay('to', query.to);
  if (to < from) throw badRequest('to must not be before from');
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > MAX_REPORT_DAYS) {
    throw badRequest(`to must be within ${MAX_REPORT_DAYS} days of from (both included)`);
  }
  return { from: utcDay(from), to: utcDay(to) };
}

/** The report's order: by day, then by kiosk id (code unit order, as Firestore orders ids). */
export const byDayThenKiosk = (a: KioskDayRow, b: KioskDayRow): number =>
  a.day < b.day ? -1 : a.day > b.day ? 1 : a.kioskId < b.kioskId ? -1 : a.kioskId > b.kioskId ? 1 : 0;

/** Adds `figures` to the figures of `day` in `days`. */
export function addToDay(days: Map<string, KioskDayFigures>, day: string, figures: KioskDayFigures): void {
  const sum = days.get(day) ?? { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
  days.set(day, {
    transactions: sum.transactions + figures.transactions,
    plasticCount: sum.plasticCount + figures.plasticCount,
    metalCount: sum.metalCount + figures.metalCount,
    points: sum.points + figures.points,
  });
}

export const KIOSK_DAY_COLUMNS = ['kioskId', 'day', 'transactions', 'plasticCount', 'metalCount', 'points'] as const;

/** What a spreadsheet reads as the start of a formula (or, for tab and CR, lets one follow). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes
 * doubled. A text cell that a spreadsheet would run as a formula gets a leading `'`
 * first; numbers are written as numbers (a negative count stays -3, not text).
 */
const csvField = (value: string | number): string => {
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The rows as CSV (RFC 4180: CRLF line ends), a header line first. */
export function kioskDaysCsv(rows: readonly KioskDayRow[]): string {
  const lines = [
    KIOSK_DAY_COLUMNS.join(','),
    ...rows.map((row) => KIOSK_DAY_COLUMNS.map((c) => csvField(row[c])).join(',')),
  ];
  return lines.map((line) => `${line}\r\n`).join('');
}
