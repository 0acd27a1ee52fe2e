import fc from 'fast-check';
import OpeningHours from 'opening_hours';
import { isOpenInWeek, parseWeeklySchedule } from '../../src/domain/weeklySchedule';
import { isOpenAt, wallClockDate } from '../../src/domain/openingHours';
import { loadIsolated } from './module-registry';
import type { Coordinates } from '../../src/model/requestBodies';

const BERLIN: Coordinates = { latitude: 52.52, longitude: 13.405 };
const DAY_NAMES = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

const library = (openingHours: string) =>
  new OpeningHours(openingHours, {
    lat: BERLIN.latitude,
    lon: BERLIN.longitude,
    address: { country_code: '', state: '' },
  });

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (minuteOfDay: number) => `${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}`;

// Strings of the plain weekly form, including its edges: wrapping day ranges
// (Sa-Mo), overlapping and repeated ranges, 24:00 ends, a first rule without days,
// later rules overriding earlier ones, off/closed and 24/7.
const daySpec = fc.oneof(
  fc.constantFrom(...DAY_NAMES),
  fc
    .tuple(fc.constantFrom(...DAY_NAMES), fc.constantFrom(...DAY_NAMES))
    .filter(([from, to]) => from !== to)
    .map(([from, to]) => `${from}-${to}`),
);
const minuteOfDay = fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.constantFrom(0, 360, 480, 720, 1200, 1380));
const timeRange = fc
  .tuple(minuteOfDay, fc.oneof(fc.integer({ min: 1, max: 1440 }), fc.constant(1440)))
  .filter(([start, end]) => start < end)
  .map(([start, end]) => `${clock(start)}-${clock(end)}`);
const times = fc.oneof(
  { weight: 6, arbitrary: fc.array(timeRange, { minLength: 1, maxLength: 3 }).map((ranges) => ranges.join(',')) },
  { weight: 1, arbitrary: fc.constantFrom('off', 'closed') },
);
const dayRule = fc
  .tuple(fc.array(daySpec, { minLength: 1, maxLength: 3 }), times)
  .map(([days, t]) => `${days.join(',')} ${t}`);
const everyDayRule = fc.oneof(times, fc.constant('24/7'));
const weeklyString = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: dayRule }, { weight: 1, arbitrary: everyDayRule }),
    fc.array(dayRule, { maxLength: 3 }),
  )
  .map(([first, rest]) => [first, ...rest].join('; '));

/** A wall-clock moment in the week of Monday 2026-11-23 (no DST change in any zone). */
const momentInWeek = fc.record({
  weekdayFromMonday: fc.integer({ min: 0, max: 6 }),
  secondOfDay: fc.oneof(
    fc.integer({ min: 0, max: 86_399 }),
    fc.integer({ min: 0, max: 1440 }).map((m) => Math.min(m * 60, 86_399)),
  ),
});

describe('parseWeeklySchedule agrees with opening_hours', () => {
  test('every string it reads is valid for opening_hours, and both give the same state at every moment', () => {
    fc.assert(
      fc.property(weeklyString, fc.array(momentInWeek, { minLength: 20, maxLength: 20 }), (hours, moments) => {
        const weekly = parseWeeklySchedule(hours);
        expect(weekly).toBeDefined();
        const reference = library(hours);
        // Around every interval edge as well as at random moments.
        const edges = weekly!.flatMap((intervals, weekday) =>
          intervals.flatMap(([start, end]) =>
            [start - 1, start, end - 1, end]
              .filter((second) => second >= 0 && second < 86_400)
              .map((secondOfDay) => ({ weekdayFromMonday: (weekday + 6) % 7, secondOfDay })),
          ),
        );
        for (const { weekdayFromMonday, secondOfDay } of [...moments, ...edges]) {
          const local = new Date(2026, 10, 23 + weekdayFromMonday, 0, 0, secondOfDay);
          const weekday = (weekdayFromMonday + 1) % 7;
          expect([hours, local.toString(), isOpenInWeek(weekly!, weekday, secondOfDay)]).toEqual([
            hours,
            local.toString(),
            reference.getState(local),
          ]);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('isOpenAt gives the library’s answer for any instant in any zone', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
    fc.assert(
      fc.property(
        weeklyString,
        fc.constantFrom(...zones),
        fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T23:59:59Z'), noInvalidDate: true }),
        (hours, timeZone, instant) => {
          expect(isOpenAt(hours, timeZone, BERLIN, instant)).toBe(
            library(hours).getState(wallClockDate(instant, timeZone)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('parseWeeklySchedule leaves everything else to opening_hours', () => {
  test.each([
    ['times past midnight', 'Fr 22:00-02:00'],
    ['an empty range', 'Mo 12:00-12:00'],
    ['lowercase days', 'mo-fr 08:00-20:00'],
    ['unpadded hours', 'Mo-Fr 8:00-20:00'],
    ['a whole-week day range', 'Mo-Mo 08:00-12:00'],
    ['sunrise and sunset', 'sunrise-sunset'],
    ['public holidays', 'Mo-Fr 08:00-20:00; PH off'],
    ['months', 'Dec 24 off'],
    ['a comma between rules', 'Mo 08:00-12:00, Tu 10:00-11:00'],
    ['a trailing separator', 'Mo 08:00-12:00;'],
    ['24/7 with days', 'Mo 24/7'],
    ['a later rule without days (opening_hours adds it)', 'Mo 05:00-12:00; 22:00-23:00'],
    ['an hour past 24', 'Mo 08:00-25:00'],
    ['a minute past 59', 'Mo 08:60-12:00'],
    ['the empty string', ''],
  ])('%s (%p)', (_what, hours) => {
    expect(parseWeeklySchedule(hours)).toBeUndefined();
  });

  test('such schedules are still evaluated, by the library', () => {
    // Friday 22:00-02:00 Berlin: Saturday 01:00 Berlin (00:00 UTC) is still open.
    expect(isOpenAt('Fr 22:00-02:00', 'Europe/Berlin', BERLIN, new Date('2026-11-28T00:00:00Z'))).toBe(true);
    expect(isOpenAt('Fr 22:00-02:00', 'Europe/Berlin', BERLIN, new Date('2026-11-28T02:00:00Z'))).toBe(false);
  });

  test('a plain weekly schedule does not load opening_hours', () => {
    const { modules: loaded } = loadIsolated(() => {
      const isolated = require('../../src/domain/openingHours') as typeof import('../../src/domain/openingHours');
      isolated.isOpenAt('Mo-Fr 06:00-22:00; Sa 08:00-20:00', 'Europe/Berlin', BERLIN, new Date());
      isolated.assertOpeningHours('Mo-Su 06:00-23:00', BERLIN);
    });
    expect(loaded.some((key) => key.includes('/src/domain/weeklySchedule'))).toBe(true);
    expect(loaded.filter((key) => key.includes('/node_modules/opening_hours/'))).toEqual([]);
  });
});
