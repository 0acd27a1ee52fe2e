import { computeAward, DEFAULT_REWARDS } from '../../src/domain/rewards';
import {
  depositWorth,
  inOrderApplied,
  legacyBreakdown,
  multiplierExtra,
  pointsByPromotion,
  promotionApplies,
  type ApplyingPromotion,
  type DepositSetting,
  type Promotion,
} from '../../src/domain/promotions';

const promotion = (fields: Partial<Promotion> & Pick<Promotion, 'id'>): Promotion => ({
  name: fields.id,
  active: true,
  startsAt: null,
  endsAt: null,
  hours: null,
  kioskIds: null,
  minItems: null,
  multiplier: null,
  bonusPoints: null,
  budgetPoints: null,
  ...fields,
});
const applying = (fields: Partial<ApplyingPromotion> & Pick<ApplyingPromotion, 'id'>): ApplyingPromotion => ({
  name: fields.id,
  multiplier: null,
  bonusPoints: null,
  left: null,
  ...fields,
});

describe('a multiplier adds floor(base × (multiplier − 1)), exactly', () => {
  test.each([
    [10, 1.2, 2],
    [110, 2.3, 143],
    [10, 2, 10],
    [15, 1.5, 7],
    [1, 10, 9],
    [0, 3, 0],
    [30, 1.1, 3],
    [70, 1.7, 49],
  ])('%d × %d adds %d', (base, multiplier, extra) => {
    expect(multiplierExtra(base, multiplier)).toBe(extra);
  });
});

describe('what a deposit is worth', () => {
  test('no promotion: the base alone', () => {
    expect(depositWorth(70, [], 5000)).toEqual({
      pointsEarned: 70,
      breakdown: [{ source: 'base', points: 70 }],
      capped: false,
    });
  });

  test('only the largest multiplier counts, then every bonus by id', () => {
    const worth = depositWorth(
      100,
      [
        applying({ id: 'z-bonus', bonusPoints: 5 }),
        applying({ id: 'double', multiplier: 2 }),
        applying({ id: 'a-bonus', bonusPoints: 7 }),
        applying({ id: 'triple', multiplier: 3 }),
      ],
      5000,
    );
    expect(worth.breakdown).toEqual([
      { source: 'base', points: 100 },
      { source: 'promotion', promotionId: 'triple', name: 'triple', points: 200 },
      { source: 'promotion', promotionId: 'a-bonus', name: 'a-bonus', points: 7 },
      { source: 'promotion', promotionId: 'z-bonus', name: 'z-bonus', points: 5 },
    ]);
    expect(worth.pointsEarned).toBe(312);
  });

  test('equal multipliers: the first by id counts', () => {
    const order = inOrderApplied([applying({ id: 'b', multiplier: 2 }), applying({ id: 'a', multiplier: 2 })]);
    expect(order.map(({ id }) => id)).toEqual(['a']);
  });

  test('a promotion never gives more than its budget has left, and one that gives 0 is left out', () => {
    const worth = depositWorth(
      100,
      [applying({ id: 'double', multiplier: 2, left: 30 }), applying({ id: 'spent', bonusPoints: 10, left: 0 })],
      5000,
    );
    expect(worth).toEqual({
      pointsEarned: 130,
      breakdown: [
        { source: 'base', points: 100 },
        { source: 'promotion', promotionId: 'double', name: 'double', points: 30 },
      ],
      capped: false,
    });
  });

  test('the cap cuts the promotions first, the last applied first, then the base', () => {
    const promotions = [applying({ id: 'double', multiplier: 2 }), applying({ id: 'bonus', bonusPoints: 50 })];
    expect(depositWorth(100, promotions, 230).breakdown).toEqual([
      { source: 'base', points: 100 },
      { source: 'promotion', promotionId: 'double', name: 'double', points: 100 },
      { source: 'promotion', promotionId: 'bonus', name: 'bonus', points: 30 },
    ]);
    expect(depositWorth(100, promotions, 150)).toEqual({
      pointsEarned: 150,
      breakdown: [
        { source: 'base', points: 100 },
        { source: 'promotion', promotionId: 'double', name: 'double', points: 50 },
      ],
      capped: true,
    });
    expect(depositWorth(100, promotions, 60)).toEqual({
      pointsEarned: 60,
      breakdown: [{ source: 'base', points: 60 }],
      capped: true,
    });
    expect(depositWorth(100, promotions, 0)).toEqual({ pointsEarned: 0, breakdown: [], capped: true });
    expect(depositWorth(100, promotions, -5)).toEqual({ pointsEarned: 0, breakdown: [], capped: true });
  });

  test('a deposit that the budget, not the cap, limits is not capped', () => {
    expect(depositWorth(10, [applying({ id: 'b', bonusPoints: 100, left: 1 })], 11).capped).toBe(false);
  });

  test('points by promotion add up its entries', () => {
    const worth = depositWorth(10, [applying({ id: 'd', multiplier: 2 }), applying({ id: 'b', bonusPoints: 3 })], 99);
    expect(Object.fromEntries(pointsByPromotion(worth.breakdown))).toEqual({ d: 10, b: 3 });
  });

  test('a transaction recorded before promotions: all of it was the base', () => {
    expect(legacyBreakdown(40)).toEqual([{ source: 'base', points: 40 }]);
    expect(legacyBreakdown(0)).toEqual([]);
  });

  test('computeAward records the breakdown and counts promotions against the cap', () => {
    const user = { currentPoints: 0, totalPoints: 0, recycledCount: 0, earnedByDay: { '2026-11-22': 4900 } };
    const award = computeAward(
      DEFAULT_REWARDS,
      user,
      { plasticCount: 6, metalCount: 0 },
      new Date('2026-11-22T12:00:00Z'),
      '2026-11-15',
      [applying({ id: 'double', multiplier: 2 })],
    );
    expect(award).toMatchObject({
      pointsEarned: 100,
      capped: true,
      breakdown: [
        { source: 'base', points: 60 },
        { source: 'promotion', promotionId: 'double', points: 40 },
      ],
      earnedByDay: { '2026-11-22': 5000 },
    });
  });
});

describe('which promotions apply', () => {
  const berlin = { timezone: 'Europe/Berlin', location: { latitude: 52.52, longitude: 13.4 } };
  // Saturday 2026-11-21, 10:30 in Berlin (09:30 UTC).
  const deposit: DepositSetting = {
    kioskId: 'alex',
    totalItems: 5,
    occurredAt: new Date('2026-11-21T09:30:00Z'),
    kiosk: berlin,
  };

  test('by default, always', () => {
    expect(promotionApplies(promotion({ id: 'p' }), deposit)).toBe(true);
  });

  test('not when inactive', () => {
    expect(promotionApplies(promotion({ id: 'p', active: false }), deposit)).toBe(false);
  });

  test('within [startsAt, endsAt) at occurredAt', () => {
    const at = deposit.occurredAt;
    expect(promotionApplies(promotion({ id: 'p', startsAt: at }), deposit)).toBe(true);
    expect(promotionApplies(promotion({ id: 'p', endsAt: at }), deposit)).toBe(false);
    expect(promotionApplies(promotion({ id: 'p', startsAt: new Date(at.getTime() + 1) }), deposit)).toBe(false);
    expect(promotionApplies(promotion({ id: 'p', endsAt: new Date(at.getTime() + 1) }), deposit)).toBe(true);
  });

  test('at the kiosks listed only', () => {
    expect(promotionApplies(promotion({ id: 'p', kioskIds: ['alex', 'zoo'] }), deposit)).toBe(true);
    expect(promotionApplies(promotion({ id: 'p', kioskIds: ['zoo'] }), deposit)).toBe(false);
  });

  test('with at least minItems items', () => {
    expect(promotionApplies(promotion({ id: 'p', minItems: 5 }), deposit)).toBe(true);
    expect(promotionApplies(promotion({ id: 'p', minItems: 6 }), deposit)).toBe(false);
  });

  test("within hours, read in the kiosk's time zone", () => {
    expect(promotionApplies(promotion({ id: 'p', hours: 'Sa,Su 00:00-24:00' }), deposit)).toBe(true);
    expect(promotionApplies(promotion({ id: 'p', hours: 'Sa 10:00-11:00' }), deposit)).toBe(true);
    // 09:30 UTC is 10:30 in Berlin: outside 09:00-10:00 there.
    expect(promotionApplies(promotion({ id: 'p', hours: 'Sa 09:00-10:00' }), deposit)).toBe(false);
    expect(promotionApplies(promotion({ id: 'p', hours: 'Mo-Fr 00:00-24:00' }), deposit)).toBe(false);
    const utcKiosk = { ...deposit, kiosk: { ...berlin, timezone: 'UTC' } };
    expect(promotionApplies(promotion({ id: 'p', hours: 'Sa 09:00-10:00' }), utcKiosk)).toBe(true);
  });
});
