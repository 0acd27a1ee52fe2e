import type OpeningHoursType from 'opening_hours';
import { badRequest } from '../errors';
import { isOpenInWeek, parseWeeklySchedule, type WeeklySchedule } from './weeklySchedule';
import type { Coordinates } from '../model/requestBodies';

/*
 * Plain weekly schedules are read by weeklySchedule.ts; everything else by
 * opening_hours, which costs ~70 ms to load, so only an instance that meets such a
 * schedule pays for it, on first use. Parsed schedules are kept per instance: a map
 * page evaluates the same few strings over and over.
 */
type Schedule = { weekly: WeeklySchedule } | { library: OpeningHoursType };

let openingHoursClass: typeof OpeningHoursType | undefined;
const parsedSchedules = new Map<string, Schedule>();
const MAX_CACHED_SCHEDULES = 1000;

function parse(openingHours: string, location: Coordinates): Schedule {
  const cacheKey = `${location.latitude},${location.longitude}|${openingHours}`;
  const cached = parsedSchedules.get(cacheKey);
  if (cached) return cached;
  const weekly = parseWeeklySchedule(openingHours);
  const schedule: Schedule = weekly ? { weekly } : { library: parseWithLibrary(openingHours, location) };
  if (parsedSchedules.size >= MAX_CACHED_SCHEDULES) parsedSchedules.clear();
  parsedSchedules.set(cacheKey, schedule);
  return schedule;
}

function parseWithLibrary(openingHours: string, location: Coordinates): OpeningHoursType {
  openingHoursClass ??= require('opening_hours') as typeof OpeningHoursType;
  // Coordinates let the evaluator resolve sunrise/sunset; without a country,
  // public-holiday rules (PH) are rejected rather than silently guessed.
  return new openingHoursClass(openingHours, {
    lat: location.latitude,
    lon: location.longitude,
    address: { country_code: '', state: '' },
  });
}

/** Why the schedule cannot be evaluated at this location, or undefined when it can. */
export function openingHoursProblem(openingHours: string, location: Coordinates): string | undefined {
  try {
    parse(openingHours, location);
    return undefined;
  } catch (error) {
    return String(error instanceof Error ? error.message : error).split('\n')[0];
  }
}

export function assertOpeningHours(openingHours: string, location: Coordinates): string {
  const problem = openingHoursProblem(openingHours, location);
  if (problem !== undefined) {
    throw badRequest(`openingHours is not valid OpenStreetMap opening_hours syntax: ${problem}`);
  }
  return openingHours;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    wallClockFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function assertTimeZone(timeZone: string): string {
  if (!isTimeZone(timeZone)) throw badRequest('timezone must be an IANA time zone name, e.g. Europe/Berlin');
  return timeZone;
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

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClockOf(instant: Date, timeZone: string): WallClock {
  const parts = wallClockFormatter(timeZone).formatToParts(instant);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return {
    year: field('year'),
    month: field('month'),
    day: field('day'),
    hour: field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
}

/**
 * opening_hours reads a Date's local fields, so the instant is turned into a Date
 * whose local fields show the kiosk's wall clock.
 */
export function wallClockDate(instant: Date, timeZone: string): Date {
  const { year, month, day, hour, minute, second } = wallClockOf(instant, timeZone);
  return new Date(year, month - 1, day, hour, minute, second);
}

export function isOpenAt(openingHours: string, timeZone: string, location: Coordinates, instant: Date): boolean {
  const schedule = parse(openingHours, location);
  if ('library' in schedule) return schedule.library.getState(wallClockDate(instant, timeZone));
  const { year, month, day, hour, minute, second } = wallClockOf(instant, timeZone);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return isOpenInWeek(schedule.weekly, weekday, (hour * 60 + minute) * 60 + second);
}
