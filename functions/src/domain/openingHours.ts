import type OpeningHoursType from 'opening_hours';
import { badRequest } from '../errors';
import type { GeoPoint } from './kiosk';

/*
 * opening_hours costs ~60 ms to load, so only the routes that show or change a
 * kiosk pay for it, on first use. Parsed schedules are kept per instance: a map
 * page evaluates the same few strings over and over.
 */
let openingHoursClass: typeof OpeningHoursType | undefined;
const parsedSchedules = new Map<string, OpeningHoursType>();
const MAX_CACHED_SCHEDULES = 1000;

function parse(openingHours: string, location: GeoPoint): OpeningHoursType {
  const cacheKey = `${location.latitude},${location.longitude}|${openingHours}`;
  const cached = parsedSchedules.get(cacheKey);
  if (cached) return cached;
  openingHoursClass ??= require('opening_hours') as typeof OpeningHoursType;
  // Coordinates let the evaluator resolve sunrise/sunset; without a country,
  // public-holiday rules (PH) are rejected rather than silently guessed.
  const schedule = new openingHoursClass(openingHours, {
    lat: location.latitude,
    lon: location.longitude,
    address: { country_code: '', state: '' },
  });
  if (parsedSchedules.size >= MAX_CACHED_SCHEDULES) parsedSchedules.clear();
  parsedSchedules.set(cacheKey, schedule);
  return schedule;
}

export function assertOpeningHours(openingHours: string, location: GeoPoint): string {
  try {
    parse(openingHours, location);
    return openingHours;
  } catch (error) {
    const reason = String(error instanceof Error ? error.message : error).split('\n')[0];
    throw badRequest(`openingHours is not valid OpenStreetMap opening_hours syntax: ${reason}`);
  }
}

export function assertTimeZone(timeZone: string): string {
  try {
    wallClockFormatter(timeZone);
    return timeZone;
  } catch {
    throw badRequest('timezone must be an IANA time zone name, e.g. Europe/Berlin');
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * opening_hours reads a Date's local fields, so the instant is turned into a Date
 * whose local fields show the kiosk's wall clock.
 */
export function wallClockDate(instant: Date, timeZone: string): Date {
  const fields: Record<string, number> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return new Date(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
}

export function isOpenAt(openingHours: string, timeZone: string, location: GeoPoint, instant: Date): boolean {
  return parse(openingHours, location).getState(wallClockDate(instant, timeZone));
}
