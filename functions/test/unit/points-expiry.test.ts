import {
  addDays,
  addMonths,
  changePoints,
  expireOn,
  expiredThrough,
  expirePoints,
  expiryDay,
  nextExpiry,
  notBeforeAfterChange,
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
    expect(nextExpiry(points, { afterMonths: 3, notBefore: null })).toEqual({ points: 10, day: '2027-01-01' });
    expect(nextExpiry(points, null)).toBeNull();
    expect(nextExpiry({}, { afterMonths: 3, notBefore: null })).toBeNull();
    expect(oldestMonth({})).toBeNull();
  });

  test('set or lowered, nothing expires in the next 30 days; raised or unset, the day stays', () => {
    const today = '2026-11-29';
    expect(notBeforeAfterChange(null, 6, null, today)).toBe('2026-12-29');
    expect(notBeforeAfterChange(12, 1, null, today)).toBe('2026-12-29');
    expect(notBeforeAfterChange(12, 1, '2027-01-15', today)).toBe('2027-01-15');
    expect(notBeforeAfterChange(1, 12, '2026-12-01', today)).toBe('2026-12-01');
    expect(notBeforeAfterChange(6, 6, null, today)).toBeNull();
    expect(notBeforeAfterChange(6, null, '2026-12-01', today)).toBe('2026-12-01');
  });

  test('before notBefore nothing expires; on it every month past its own date, gathered on one date', () => {
    const points = { '2026-06': 10, '2026-09': 20, '2026-11': 40 };
    const rule = { afterMonths: 1, notBefore: '2026-12-15' };
    expect(expireOn(points, '2026-12-14', rule)).toEqual({ expired: 0, remaining: points });
    expect(nextExpiry(points, rule)).toEqual({ points: 30, day: '2026-12-15' });
    expect(expireOn(points, '2026-12-15', rule)).toEqual({ expired: 30, remaining: { '2026-11': 40 } });
    expect(nextExpiry({ '2026-11': 40 }, rule)).toEqual({ points: 40, day: '2027-01-01' });
  });
});
