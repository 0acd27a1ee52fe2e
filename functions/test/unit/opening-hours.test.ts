import { assertOpeningHours, assertTimeZone, isOpenAt, wallClockDate } from '../../src/domain/openingHours';
import { apiErrorOf } from './api-error';
import type { Coordinates } from '../../src/model/requestBodies';

const BERLIN: Coordinates = { latitude: 52.52, longitude: 13.405 };
const WEEKDAYS = 'Mo-Fr 08:00-20:00';

/** The local fields of a Date, which is what opening_hours reads. */
const fieldsOf = (date: Date) => [
  date.getFullYear(),
  date.getMonth() + 1,
  date.getDate(),
  date.getHours(),
  date.getMinutes(),
  date.getSeconds(),
];

describe('wallClockDate', () => {
  test('shows the wall clock of the given zone', () => {
    const instant = new Date('2026-11-23T06:30:15Z');
    expect(fieldsOf(wallClockDate(instant, 'Europe/Berlin'))).toEqual([2026, 11, 23, 7, 30, 15]);
    expect(fieldsOf(wallClockDate(instant, 'America/New_York'))).toEqual([2026, 11, 23, 1, 30, 15]);
    expect(fieldsOf(wallClockDate(instant, 'Asia/Tokyo'))).toEqual([2026, 11, 23, 15, 30, 15]);
    expect(fieldsOf(wallClockDate(instant, 'UTC'))).toEqual([2026, 11, 23, 6, 30, 15]);
  });

  test('crosses the date line into the next and the previous day', () => {
    const instant = new Date('2026-12-31T23:30:00Z');
    expect(fieldsOf(wallClockDate(instant, 'Europe/Berlin'))).toEqual([2027, 1, 1, 0, 30, 0]);
    const early = new Date('2027-01-01T03:00:00Z');
    expect(fieldsOf(wallClockDate(early, 'America/New_York'))).toEqual([2026, 12, 31, 22, 0, 0]);
  });

  test('midnight is hour 0, not 24', () => {
    expect(fieldsOf(wallClockDate(new Date('2026-11-22T23:00:00Z'), 'Europe/Berlin'))).toEqual([2026, 11, 23, 0, 0, 0]);
  });

  test('follows the spring DST change in Europe/Berlin (2026-03-29, 02:00 CET -> 03:00 CEST)', () => {
    expect(fieldsOf(wallClockDate(new Date('2026-03-29T00:30:00Z'), 'Europe/Berlin'))).toEqual([2026, 3, 29, 1, 30, 0]);
    expect(fieldsOf(wallClockDate(new Date('2026-03-29T00:59:59Z'), 'Europe/Berlin'))).toEqual([
      2026, 3, 29, 1, 59, 59,
    ]);
    expect(fieldsOf(wallClockDate(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin'))).toEqual([2026, 3, 29, 3, 0, 0]);
    expect(fieldsOf(wallClockDate(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin'))).toEqual([2026, 3, 29, 3, 30, 0]);
  });

  test('follows the autumn DST change in Europe/Berlin (2026-10-25, 02:30 happens twice)', () => {
    expect(fieldsOf(wallClockDate(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin'))).toEqual([
      2026, 10, 25, 2, 30, 0,
    ]);
    expect(fieldsOf(wallClockDate(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin'))).toEqual([
      2026, 10, 25, 2, 30, 0,
    ]);
  });
});

describe('isOpenAt', () => {
  // 2026-11-23 is a Monday; Berlin is UTC+1 and New York UTC-5 in November.
  test('07:30 in Berlin on a Monday is before opening', () => {
    expect(isOpenAt(WEEKDAYS, 'Europe/Berlin', BERLIN, new Date('2026-11-23T06:30:00Z'))).toBe(false);
  });

  test('08:30 in Berlin on a Monday is open', () => {
    expect(isOpenAt(WEEKDAYS, 'Europe/Berlin', BERLIN, new Date('2026-11-23T07:30:00Z'))).toBe(true);
  });

  test('the same instant is judged on the kiosk time zone', () => {
    const instant = new Date('2026-11-23T07:30:00Z'); // 08:30 Berlin, 02:30 New York, 07:30 UTC
    expect(isOpenAt(WEEKDAYS, 'Europe/Berlin', BERLIN, instant)).toBe(true);
    expect(isOpenAt(WEEKDAYS, 'America/New_York', BERLIN, instant)).toBe(false);
    expect(isOpenAt(WEEKDAYS, 'UTC', BERLIN, instant)).toBe(false);
    const later = new Date('2026-11-23T13:30:00Z'); // 08:30 New York
    expect(isOpenAt(WEEKDAYS, 'America/New_York', BERLIN, later)).toBe(true);
  });

  test('the weekday is the one of the kiosk time zone', () => {
    // Sunday 23:30 UTC is Monday 08:30 in Tokyo and Monday 00:30 in Berlin.
    const instant = new Date('2026-11-22T23:30:00Z');
    expect(isOpenAt(WEEKDAYS, 'Asia/Tokyo', BERLIN, instant)).toBe(true);
    expect(isOpenAt(WEEKDAYS, 'UTC', BERLIN, instant)).toBe(false);
    expect(isOpenAt('Mo 00:00-01:00', 'Europe/Berlin', BERLIN, instant)).toBe(true);
    expect(isOpenAt('Mo 00:00-01:00', 'UTC', BERLIN, instant)).toBe(false);
  });

  test('closing time is exclusive', () => {
    expect(isOpenAt(WEEKDAYS, 'Europe/Berlin', BERLIN, new Date('2026-11-27T18:59:00Z'))).toBe(true);
    expect(isOpenAt(WEEKDAYS, 'Europe/Berlin', BERLIN, new Date('2026-11-27T19:00:00Z'))).toBe(false);
  });

  test.each([
    ['Saturday', '2026-11-21T10:00:00Z'],
    ['Sunday', '2026-11-22T10:00:00Z'],
  ])('Mo-Fr is closed on %s at 11:00 Berlin', (_day, iso) => {
    expect(isOpenAt(WEEKDAYS, 'Europe/Berlin', BERLIN, new Date(iso))).toBe(false);
  });

  test.each([
    ['2026-11-21T03:00:00Z', 'Europe/Berlin'],
    ['2026-11-22T23:59:59Z', 'America/New_York'],
    ['2026-03-29T01:30:00Z', 'Europe/Berlin'],
    ['2026-07-01T12:00:00Z', 'Asia/Tokyo'],
    ['2026-01-01T00:00:00Z', 'UTC'],
  ])('24/7 is open at %s in %s', (iso, timeZone) => {
    expect(isOpenAt('24/7', timeZone, BERLIN, new Date(iso))).toBe(true);
  });

  test('opening times keep their wall-clock meaning across the DST change', () => {
    const daily = 'Mo-Su 08:00-09:00';
    // Saturday before the change: 08:30 CET is 07:30 UTC.
    expect(isOpenAt(daily, 'Europe/Berlin', BERLIN, new Date('2026-03-28T07:30:00Z'))).toBe(true);
    // Monday after the change: 07:30 UTC is 09:30 CEST, 06:30 UTC is 08:30 CEST.
    expect(isOpenAt(daily, 'Europe/Berlin', BERLIN, new Date('2026-03-30T07:30:00Z'))).toBe(false);
    expect(isOpenAt(daily, 'Europe/Berlin', BERLIN, new Date('2026-03-30T06:30:00Z'))).toBe(true);
  });

  test('several rules: lunch break and Saturday hours', () => {
    const hours = 'Mo-Fr 08:00-12:00,13:00-18:00; Sa 09:00-13:00';
    expect(isOpenAt(hours, 'Europe/Berlin', BERLIN, new Date('2026-11-23T11:30:00Z'))).toBe(false); // Mo 12:30
    expect(isOpenAt(hours, 'Europe/Berlin', BERLIN, new Date('2026-11-23T12:30:00Z'))).toBe(true); // Mo 13:30
    expect(isOpenAt(hours, 'Europe/Berlin', BERLIN, new Date('2026-11-21T09:00:00Z'))).toBe(true); // Sa 10:00
    expect(isOpenAt(hours, 'Europe/Berlin', BERLIN, new Date('2026-11-22T09:00:00Z'))).toBe(false); // Su 10:00
  });
});

describe('assertOpeningHours', () => {
  test.each([[WEEKDAYS], ['24/7'], ['Mo-Fr 08:00-12:00,13:00-18:00; Sa 09:00-13:00'], ['sunrise-sunset']])(
    '%p is accepted and returned unchanged',
    (hours) => {
      expect(assertOpeningHours(hours, BERLIN)).toBe(hours);
    },
  );

  test.each([['garbage!!'], ['Mo-Fr 25:00-26:00'], ['']])('%p is a 400 naming openingHours', (hours) => {
    const error = apiErrorOf(() => assertOpeningHours(hours, BERLIN));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid-argument');
    expect(error.message).toContain('openingHours');
    expect(error.message).not.toContain('\n');
  });

  test('public-holiday rules are rejected, as no country is known', () => {
    // The library also logs the evaluation error itself; keep the test output quiet.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const error = apiErrorOf(() => assertOpeningHours('Mo-Fr 08:00-20:00; PH off', BERLIN));
      expect(error.status).toBe(400);
      expect(error.message).toContain('openingHours');
    } finally {
      consoleError.mockRestore();
    }
  });
});

describe('assertTimeZone', () => {
  test.each([['UTC'], ['Asia/Tokyo'], ['Europe/Berlin'], ['America/New_York']])('%p is accepted', (zone) => {
    expect(assertTimeZone(zone)).toBe(zone);
  });

  test.each([['Mars/Olympus'], [''], ['Europe/Atlantis'], ['+25:00']])('%p is a 400 naming timezone', (zone) => {
    const error = apiErrorOf(() => assertTimeZone(zone));
    expect(error.status).toBe(400);
    expect(error.message).toContain('timezone');
  });
});
