import {
  addDays,
  addMonths,
  changePoints,
  expiredThrough,
  expirePoints,
  expiryDay,
  nextExpiry,
  oldestMonth,
  parseDay,
  sumOf,
} from '../../src/domain/pointsExpiry';

describe('the dates of points that expire', () => {
  test.each([
    ['2026-11', 1, '2026-12'],
    ['2026-11', 2, '2027-01'],
    ['2026-12', 1, '2027-01'],
    ['2026-01', -1, '2025-12'],
    ['2026-11', 120, '2036-11'],
    ['2026-03', -15, '2024-12'],
  ] as const)('%s plus %d months is %s', (month, count, expected) => {
    expect(addMonths(month, count)).toBe(expected);
  });

  test.each([
    ['2026-11', 1, '2027-01-01'],
    ['2026-12', 1, '2027-02-01'],
    ['2026-01', 12, '2027-02-01'],
    ['2027-01', 1, '2027-03-01'],
  ] as const)('points added in %s with N = %d are valid through the day before %s', (month, n, day) => {
    expect(expiryDay(month, n)).toBe(day);
  });

  test('on the last day of the month N months later the points are still valid; on the next day they are not', () => {
    // Added in November 2026, N = 1: valid through 31 December 2026.
    expect(expiredThrough('2026-12-31', 1) < '2026-11').toBe(true);
    expect(expiredThrough('2027-01-01', 1)).toBe('2026-11');
    // Added in December 2027, N = 2: valid through 29 February 2028 (a leap day).
    expect(expiredThrough('2028-02-29', 2) < '2027-12').toBe(true);
    expect(expiredThrough('2028-03-01', 2)).toBe('2027-12');
  });

  test('days: across months, years and leap days; only real days parse', () => {
    expect(addDays('2026-12-02', 30)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(parseDay('2028-02-29')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    for (const text of ['2027-02-29', '2027-13-01', '2027-1-01', 'tomorrow', '2027-01-01T00:00:00Z']) {
      expect(parseDay(text)).toBeUndefined();
    }
  });
});

describe('the points by month', () => {
  test('added points count in their month; spending takes the oldest months first', () => {
    let points = changePoints({}, 100, '2026-10');
    points = changePoints(points, 50, '2026-11');
    points = changePoints(points, 30, '2026-12');
    expect(changePoints(points, -120, '2026-12')).toEqual({ '2026-11': 30, '2026-12': 30 });
    expect(changePoints(points, -100, '2026-12')).toEqual({ '2026-11': 50, '2026-12': 30 });
    expect(changePoints(points, -180, '2026-12')).toEqual({});
    // A refund or a positive adjustment adds to its own month, however old the others are.
    expect(changePoints({ '2026-10': 5 }, 20, '2026-12')).toEqual({ '2026-10': 5, '2026-12': 20 });
  });

  test('spending more than the model holds empties it (the audit reports it), never below 0', () => {
    expect(changePoints({ '2026-10': 5 }, -9, '2026-12')).toEqual({});
  });

  test('expiring takes every month through the cutoff', () => {
    const points = { '2026-09': 10, '2026-10': 20, '2026-11': 40 };
    expect(expirePoints(points, '2026-10')).toEqual({ expired: 30, remaining: { '2026-11': 40 } });
    expect(expirePoints(points, '2026-08')).toEqual({ expired: 0, remaining: points });
  });

  test('the next expiry is the oldest month; none when expiry is off or there are no points', () => {
    const points = { '2026-11': 40, '2026-09': 10 };
    expect(oldestMonth(points)).toBe('2026-09');
    expect(sumOf(points)).toBe(50);
    expect(nextExpiry(points, 3)).toEqual({ points: 10, day: '2027-01-01' });
    expect(nextExpiry(points, null)).toBeNull();
    expect(nextExpiry({}, 3)).toBeNull();
    expect(oldestMonth({})).toBeNull();
  });
});
