import {
  NO_LIMITS,
  addItemsOnDay,
  addToBuckets,
  distanceKm,
  heldAward,
  holdReasons,
  impossibleTravel,
  itemsInWindow,
  minuteOf,
  parseLimitArgument,
  parseRiskConfig,
  type RiskFacts,
} from '../../src/domain/risk';
import { computeAward, DEFAULT_REWARDS } from '../../src/domain/rewards';
import { holdDecisionNotification, transactionNotification } from '../../src/domain/messages';

const BERLIN = { latitude: 52.521918, longitude: 13.413215 };
const MUNICH = { latitude: 48.137154, longitude: 11.576124 };
const at = (iso: string) => new Date(iso);

const facts = (over: Partial<RiskFacts> = {}): RiskFacts => ({
  items: 10,
  suspended: false,
  kioskWindowItems: 0,
  userDayItems: 0,
  travel: undefined,
  ...over,
});

describe('parseRiskConfig', () => {
  test('every limit is off until set', () => {
    expect(parseRiskConfig(undefined)).toEqual({ config: NO_LIMITS, invalid: [] });
  });

  test('a field that is not a positive whole number is off and named', () => {
    const { config, invalid } = parseRiskConfig({ kioskItemsPerMinute: 40, userItemsPerDay: -3, travelKmh: 'fast' });
    expect(config).toEqual({ kioskItemsPerMinute: 40, userItemsPerDay: null, travelKmh: null });
    expect(invalid).toEqual(['userItemsPerDay', 'travelKmh']);
  });

  test('risk:set takes n or off', () => {
    expect(parseLimitArgument('250')).toBe(250);
    expect(parseLimitArgument('off')).toBeNull();
    for (const bad of ['0', '-1', '1.5', 'on', '', '10000000']) expect(parseLimitArgument(bad)).toBeUndefined();
  });
});

describe('the kiosk window', () => {
  test('counts the deposit minute and the 9 minutes before it', () => {
    const minute = minuteOf(at('2026-11-23T10:00:30Z'));
    const buckets = { [minute - 10]: 100, [minute - 9]: 1, [minute]: 2, [minute + 1]: 50 };
    expect(itemsInWindow(buckets, minute)).toBe(3);
  });

  test('adding drops minutes no deposit can still look at', () => {
    expect(addToBuckets({ '5': 1, '20': 2 }, 20, 3, 10)).toEqual({ '20': 5 });
  });

  test('items by day count on the UTC day of occurredAt and forget days before the oldest', () => {
    expect(addItemsOnDay({ '2026-11-01': 4, '2026-11-23': 5 }, at('2026-11-23T23:59:59Z'), 2, '2026-11-20')).toEqual({
      '2026-11-23': 7,
    });
  });
});

describe('travel', () => {
  test('Berlin to Munich is about 504 km', () => {
    expect(distanceKm(BERLIN, MUNICH)).toBeGreaterThan(500);
    expect(distanceKm(BERLIN, MUNICH)).toBeLessThan(510);
  });

  test('impossible faster than the limit, possible slower, both ways in time', () => {
    const berlin = { kioskId: 'berlin', place: BERLIN, at: at('2026-11-23T10:00:00Z') };
    const munichSoon = { kioskId: 'munich', place: MUNICH, at: at('2026-11-23T11:00:00Z') };
    const munichLate = { kioskId: 'munich', place: MUNICH, at: at('2026-11-23T13:00:00Z') };
    expect(impossibleTravel(berlin, munichSoon, 250)).toBe(true);
    expect(impossibleTravel(berlin, munichLate, 250)).toBe(false);
    expect(impossibleTravel(munichSoon, berlin, 250)).toBe(true);
  });

  test('one kiosk, or a kiosk without a place, is never a trip', () => {
    const here = { kioskId: 'berlin', place: BERLIN, at: at('2026-11-23T10:00:00Z') };
    expect(impossibleTravel(here, { ...here, at: here.at }, 1)).toBe(false);
    expect(impossibleTravel(here, { kioskId: 'x', place: undefined, at: here.at }, 1)).toBe(false);
  });
});

describe('holdReasons', () => {
  const all = { kioskItemsPerMinute: 10, userItemsPerDay: 100, travelKmh: 250 };

  test('nothing with every limit off, whatever the figures', () => {
    expect(holdReasons(NO_LIMITS, facts({ kioskWindowItems: 1e6, userDayItems: 1e6 }))).toEqual([]);
  });

  test('a kiosk above 10 × its items per minute, the deposit included', () => {
    expect(holdReasons(all, facts({ kioskWindowItems: 90 }))).toEqual([]);
    expect(holdReasons(all, facts({ kioskWindowItems: 91 }))).toEqual(['kiosk-throughput']);
  });

  test("a user above the day's items, the deposit included", () => {
    expect(holdReasons(all, facts({ userDayItems: 90 }))).toEqual([]);
    expect(holdReasons(all, facts({ userDayItems: 91 }))).toEqual(['user-daily-items']);
  });

  test('every rule tripped, in order, suspension included', () => {
    const travel = {
      previous: { kioskId: 'berlin', place: BERLIN, at: at('2026-11-23T10:00:00Z') },
      next: { kioskId: 'munich', place: MUNICH, at: at('2026-11-23T10:30:00Z') },
    };
    expect(holdReasons(all, facts({ kioskWindowItems: 100, userDayItems: 100, travel, suspended: true }))).toEqual([
      'kiosk-throughput',
      'user-daily-items',
      'impossible-travel',
      'user-suspended',
    ]);
  });
});

describe('heldAward', () => {
  test('keeps the points and the cap counted, the balances and rank as before', () => {
    const user = { currentPoints: 990, totalPoints: 990, recycledCount: 0, earnedByDay: {} };
    const award = computeAward(
      DEFAULT_REWARDS,
      user,
      { plasticCount: 2, metalCount: 0 },
      at('2026-11-23T10:00:00Z'),
      '2026-11-01',
    );
    const held = heldAward(DEFAULT_REWARDS, award, user.totalPoints);
    expect(held).toMatchObject({ pointsEarned: 20, currentPoints: 990, totalPoints: 990, rank: 'Bronze' });
    expect(held.earnedByDay).toEqual({ '2026-11-23': 20 });
    expect(held.recycledCount).toBe(2);
  });
});

describe('the messages of held points', () => {
  test('a held deposit says its points are being checked', () => {
    const content = transactionNotification({
      transactionId: 't',
      kioskId: 'k',
      kioskName: 'Alexanderplatz',
      totalItems: 5,
      pointsEarned: 70,
      newBalance: 100,
      held: true,
    });
    expect(content.title).toBe('We are checking your 70 points');
    expect(content.data.status).toBe('held');
  });

  test('a release and a rejection', () => {
    const decision = { transactionId: 't', kioskId: 'k', points: 70, newBalance: 170 };
    expect(holdDecisionNotification({ ...decision, resolution: 'released' }).data.type).toBe('points-released');
    expect(holdDecisionNotification({ ...decision, resolution: 'rejected' }).title).toBe(
      'Your 70 points were not credited',
    );
  });
});
