import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_TIMEZONE,
  assertKioskDefinition,
  assertLocation,
  isKioskStatus,
  toKioskView,
  type KioskRecord,
} from '../../src/domain/kiosk';
import { apiErrorOf } from './api-error';
import { KIOSK_STATUSES } from '../../src/model/vocabulary';

const record: KioskRecord = {
  id: 'kiosk-berlin-1',
  name: 'Alexanderplatz',
  address: 'Alexanderplatz 1, 10178 Berlin',
  status: 'available',
  plasticCount: 12,
  metalCount: 7,
  lastUpdated: new Date('2026-11-20T10:15:30.123Z'),
  location: { latitude: 52.5219, longitude: 13.4132 },
  openingHours: 'Mo-Fr 08:00-20:00',
  timezone: 'Europe/Berlin',
  lastSeenAt: new Date('2026-11-23T07:20:00.000Z'),
};
const ONLINE_MINUTES = 15;

describe('toKioskView', () => {
  test('has exactly the public fields, lastUpdated as ISO string', () => {
    const view = toKioskView(record, new Date('2026-11-23T07:30:00Z'), ONLINE_MINUTES);
    expect(view).toStrictEqual({
      ...record,
      lastUpdated: '2026-11-20T10:15:30.123Z',
      openNow: true,
      lastSeenAt: '2026-11-23T07:20:00.000Z',
      online: true,
    });
    expect(Object.keys(view).sort()).toEqual(
      [
        'address',
        'id',
        'lastSeenAt',
        'lastUpdated',
        'location',
        'metalCount',
        'name',
        'online',
        'openNow',
        'openingHours',
        'plasticCount',
        'status',
        'timezone',
      ].sort(),
    );
  });

  test('online: seen within the window, at its edge included; never seen is offline', () => {
    const at = (iso: string) => toKioskView(record, new Date(iso), ONLINE_MINUTES);
    expect(at('2026-11-23T07:35:00.000Z').online).toBe(true);
    expect(at('2026-11-23T07:35:00.001Z').online).toBe(false);
    const never = toKioskView({ ...record, lastSeenAt: null }, new Date('2026-11-23T07:30:00Z'), ONLINE_MINUTES);
    expect([never.lastSeenAt, never.online]).toEqual([null, false]);
  });

  test('openNow follows the kiosk time zone', () => {
    expect(toKioskView(record, new Date('2026-11-23T06:30:00Z'), ONLINE_MINUTES).openNow).toBe(false); // 07:30 Berlin
    expect(toKioskView(record, new Date('2026-11-23T07:30:00Z'), ONLINE_MINUTES).openNow).toBe(true); // 08:30 Berlin
    const newYork = { ...record, timezone: 'America/New_York' };
    expect(toKioskView(newYork, new Date('2026-11-23T07:30:00Z'), ONLINE_MINUTES).openNow).toBe(false); // 02:30 New York
  });

  test('openNow does not depend on the status', () => {
    const offline: KioskRecord = { ...record, status: 'offline', openingHours: '24/7' };
    const view = toKioskView(offline, new Date('2026-11-22T03:00:00Z'), ONLINE_MINUTES);
    expect(view.status).toBe('offline');
    expect(view.openNow).toBe(true);
  });

  test('extra stored fields do not leak, not even inside location', () => {
    const stored = {
      ...record,
      apiKeyHash: 'secret',
      geohash: 'u33dc',
      location: { latitude: 1, longitude: 2, geohash: 'u33dc' },
    };
    const view = toKioskView(stored, new Date('2026-11-23T07:30:00Z'), ONLINE_MINUTES);
    expect(view).not.toHaveProperty('apiKeyHash');
    expect(view).not.toHaveProperty('geohash');
    expect(view.location).toStrictEqual({ latitude: 1, longitude: 2 });
    expect(view.location).not.toBe(stored.location);
  });

  test('the defaults are open around the clock in UTC', () => {
    expect(DEFAULT_OPENING_HOURS).toBe('24/7');
    expect(DEFAULT_TIMEZONE).toBe('UTC');
    const view = toKioskView(
      { ...record, openingHours: DEFAULT_OPENING_HOURS, timezone: DEFAULT_TIMEZONE },
      new Date('2026-11-22T03:00:00Z'),
      ONLINE_MINUTES,
    );
    expect(view.openNow).toBe(true);
  });
});

describe('assertLocation', () => {
  test.each([
    [0, 0],
    [90, 180],
    [-90, -180],
    [52.52, 13.405],
  ])('(%p, %p) is accepted', (latitude, longitude) => {
    expect(assertLocation({ latitude, longitude })).toStrictEqual({ latitude, longitude });
  });

  test('returns only latitude and longitude', () => {
    const withExtra = { latitude: 1, longitude: 2, altitude: 3 };
    expect(assertLocation(withExtra)).toStrictEqual({ latitude: 1, longitude: 2 });
  });

  test.each([[90.0001], [-90.5], [91], [NaN], [Infinity], [-Infinity]])(
    'latitude %p is a 400 naming location.latitude',
    (latitude) => {
      const error = apiErrorOf(() => assertLocation({ latitude, longitude: 0 }));
      expect(error.status).toBe(400);
      expect(error.message).toContain('location.latitude');
    },
  );

  test.each([[180.5], [-181], [NaN], [Infinity]])('longitude %p is a 400 naming location.longitude', (longitude) => {
    const error = apiErrorOf(() => assertLocation({ latitude: 0, longitude }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('location.longitude');
  });

  test('a string is not a number', () => {
    const error = apiErrorOf(() => assertLocation({ latitude: '45' as unknown as number, longitude: 0 }));
    expect(error.message).toContain('location.latitude');
  });
});

describe('isKioskStatus', () => {
  test.each(KIOSK_STATUSES.map((status) => [status]))('%p is a status', (status) => {
    expect(isKioskStatus(status)).toBe(true);
  });

  test('the statuses are available, maintenance and offline', () => {
    expect([...KIOSK_STATUSES]).toEqual(['available', 'maintenance', 'offline']);
  });

  test.each([['Available'], ['broken'], [''], [undefined], [null], [1], [['available']]])(
    '%p is not a status',
    (value) => {
      expect(isKioskStatus(value)).toBe(false);
    },
  );
});

describe('assertKioskDefinition', () => {
  const given = {
    id: 'alex-1',
    name: 'Alexanderplatz',
    address: 'Alexanderplatz 1, Berlin',
    location: { latitude: 52.5219, longitude: 13.4132 },
  };

  test('a full definition comes back as given', () => {
    const full = {
      ...given,
      openingHours: 'Mo-Fr 08:00-20:00',
      timezone: 'Europe/Berlin',
      status: 'maintenance' as const,
    };
    expect(assertKioskDefinition(full)).toStrictEqual(full);
  });

  test('omitted and null optional fields are both "not given"', () => {
    const expected = { ...given, openingHours: undefined, timezone: undefined, status: undefined };
    expect(assertKioskDefinition(given)).toStrictEqual(expected);
    expect(assertKioskDefinition({ ...given, openingHours: null, timezone: null, status: null })).toStrictEqual(
      expected,
    );
  });

  test.each([
    [{ id: '__x__' }, 'id must be 1-128 characters'],
    [{ location: { latitude: 91, longitude: 0 } }, 'location.latitude must be a number from -90 to 90'],
    [{ timezone: 'Mars/Olympus' }, 'timezone must be an IANA time zone name'],
    [{ openingHours: 'whenever we feel like it' }, 'openingHours is not valid OpenStreetMap opening_hours syntax'],
  ])('%p is a 400: %s', (override, message) => {
    const error = apiErrorOf(() => assertKioskDefinition({ ...given, ...override }));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  test('checks the id before the location', () => {
    const error = apiErrorOf(() =>
      assertKioskDefinition({ ...given, id: '.', location: { latitude: 99, longitude: 0 } }),
    );
    expect(error.message).toContain('id must be');
  });
});
