import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { DEFAULT_REWARDS, computeAward, parseRewardsConfig, pointsFor, rankFor } from '../../src/domain/rewards';
import { operatorRewards } from '../rewards-config';

describe('points', () => {
  test('10 per plastic item and 20 per metal item by default', () => {
    expect(pointsFor(DEFAULT_REWARDS, 3, 2)).toBe(70);
    expect(pointsFor(DEFAULT_REWARDS, 0, 1)).toBe(20);
    expect(pointsFor(DEFAULT_REWARDS, 1000, 1000)).toBe(30000);
  });

  test('follow an operator config', () => {
    const { config } = parseRewardsConfig({ pointsPerPlastic: 1, pointsPerMetal: 5 });
    expect(pointsFor(config, 3, 2)).toBe(13);
  });
});

describe('ranks', () => {
  test.each([
    [0, 'Bronze'],
    [999, 'Bronze'],
    [1000, 'Silver'],
    [4999, 'Silver'],
    [5000, 'Gold'],
    [19999, 'Gold'],
    [20000, 'Platinum'],
    [1_000_000, 'Platinum'],
  ])('%d total points is %s', (totalPoints, rank) => {
    expect(rankFor(DEFAULT_REWARDS, totalPoints)).toBe(rank);
  });

  test('the starting rank is the lowest one', () => {
    expect(rankFor(DEFAULT_REWARDS, 0)).toBe('Bronze');
  });

  test('operator ranks are sorted by threshold', () => {
    const { config, problems } = parseRewardsConfig({
      ranks: [
        { name: 'Tree', minTotalPoints: 100 },
        { name: 'Seed', minTotalPoints: 0 },
      ],
    });
    expect(problems).toEqual([]);
    expect(rankFor(config, 99)).toBe('Seed');
    expect(rankFor(config, 100)).toBe('Tree');
  });
});

const NOON = new Date('2026-11-22T12:00:00Z');
/** Deposits may arrive for the last 7 days: earnings of earlier days are forgotten. */
const OLDEST_DAY = '2026-11-15';
const noEarnings = { earnedByDay: {} };

describe('award', () => {
  /** An award at noon to a user who has earned nothing in the last days. */
  const awardAtNoon = (
    user: Omit<Parameters<typeof computeAward>[1], 'earnedByDay'>,
    deposit: Parameters<typeof computeAward>[2],
  ) => computeAward(DEFAULT_REWARDS, { ...user, ...noEarnings }, deposit, NOON, OLDEST_DAY);

  test('raises balance, lifetime points and recycled count, and ranks by lifetime points', () => {
    const award = awardAtNoon(
      { currentPoints: 10, totalPoints: 990, recycledCount: 40 },
      { plasticCount: 1, metalCount: 0 },
    );
    expect(award).toEqual({
      earnedByDay: { '2026-11-22': 10 },
      capped: false,
      breakdown: [{ source: 'base', points: 10 }],
      pointsEarned: 10,
      totalItems: 1,
      balanceBefore: 10,
      currentPoints: 20,
      totalPoints: 1000,
      recycledCount: 41,
      rank: 'Silver',
    });
  });

  test('a spent balance does not lower the rank', () => {
    const award = awardAtNoon(
      { currentPoints: 0, totalPoints: 6000, recycledCount: 500 },
      { plasticCount: 0, metalCount: 1 },
    );
    expect(award.rank).toBe('Gold');
    expect(award.currentPoints).toBe(20);
  });
});

describe('daily cap', () => {
  const user = { currentPoints: 0, totalPoints: 0, recycledCount: 0, ...noEarnings };
  const award = (earnedByDay: Record<string, number>, plasticCount: number, metalCount = 0, when = NOON) =>
    computeAward(DEFAULT_REWARDS, { ...user, earnedByDay }, { plasticCount, metalCount }, when, OLDEST_DAY);

  test('5,000 points per UTC day by default, counted across awards of the same day', () => {
    const landsOnCap = award({ '2026-11-22': 4980 }, 2);
    expect(landsOnCap).toMatchObject({ pointsEarned: 20, capped: false, earnedByDay: { '2026-11-22': 5000 } });
    const pastCap = award({ '2026-11-22': 4980 }, 3);
    expect(pastCap).toMatchObject({ pointsEarned: 20, capped: true, earnedByDay: { '2026-11-22': 5000 } });
  });

  test('past the cap the items still count, for 0 points', () => {
    const full = award({ '2026-11-22': 5000 }, 4, 1);
    expect(full).toMatchObject({ pointsEarned: 0, capped: true, totalItems: 5, recycledCount: 5, currentPoints: 0 });
  });

  test('a new UTC day starts from zero', () => {
    expect(award({ '2026-11-21': 5000 }, 0, 1)).toMatchObject({
      pointsEarned: 20,
      capped: false,
      earnedByDay: { '2026-11-21': 5000, '2026-11-22': 20 },
    });
  });

  test('a deposit made days ago counts against the cap of its own day', () => {
    const threeDaysAgo = new Date('2026-11-19T23:59:59Z');
    const late = award({ '2026-11-19': 4990, '2026-11-22': 0 }, 2, 0, threeDaysAgo);
    expect(late).toMatchObject({ pointsEarned: 10, capped: true });
    expect(late.earnedByDay['2026-11-19']).toBe(5000);
  });

  test('earnings of days before the oldest accepted day are forgotten', () => {
    expect(award({ '2026-11-14': 100, '2026-11-15': 200 }, 1).earnedByDay).toEqual({
      '2026-11-15': 200,
      '2026-11-22': 10,
    });
  });

  test('one deposit larger than the cap earns the cap', () => {
    expect(award({}, 1000)).toMatchObject({ pointsEarned: 5000, capped: true });
  });

  test('operators set the cap in config/rewards', () => {
    const { config } = parseRewardsConfig({ dailyPointsCap: 100 });
    const capped = (plasticCount: number) =>
      computeAward(config, user, { plasticCount, metalCount: 0 }, NOON, OLDEST_DAY).capped;
    expect(capped(10)).toBe(false);
    expect(capped(11)).toBe(true);
  });
});

describe('operator config', () => {
  test('absent: the defaults', () => {
    expect(parseRewardsConfig(undefined)).toEqual({ config: DEFAULT_REWARDS, invalidFields: [], problems: [] });
  });

  test.each([
    [{ pointsPerPlastic: -1 }, 'pointsPerPlastic', 'pointsPerPlastic'],
    [{ pointsPerMetal: 1.5 }, 'pointsPerMetal', 'pointsPerMetal'],
    [{ pointsPerMetal: '20' }, 'pointsPerMetal', 'pointsPerMetal'],
    [{ dailyPointsCap: -5 }, 'dailyPointsCap', 'dailyPointsCap'],
    [{ ranks: [] }, 'ranks', 'ranks'],
    [{ ranks: 'Bronze:0,Silver:1000' }, 'ranks', 'ranks'],
    [{ ranks: [{ name: 'Only', minTotalPoints: 10 }] }, 'ranks', 'lowest rank'],
    [
      {
        ranks: [
          { name: 'A', minTotalPoints: 0 },
          { name: 'B', minTotalPoints: 0 },
        ],
      },
      'ranks',
      'same minTotalPoints',
    ],
    [{ ranks: [{ name: '', minTotalPoints: 0 }] }, 'ranks', 'ranks'],
    [{ pointsExpireAfterMonths: 0 }, 'pointsExpireAfterMonths', 'from 1 to 120'],
    [{ pointsExpireAfterMonths: 121 }, 'pointsExpireAfterMonths', 'from 1 to 120'],
    [{ pointsExpireAfterMonths: 1.5 }, 'pointsExpireAfterMonths', 'whole number'],
    [{ pointsExpireAfterMonths: '12' }, 'pointsExpireAfterMonths', 'or null'],
    [{ pointsExpireNotBefore: '2027-02-30' }, 'pointsExpireNotBefore', 'YYYY-MM-DD'],
  ] as const)(
    'broken %p: that field alone falls back to its default, the others keep their values, the field named',
    (broken, field, problem) => {
      const { config, invalidFields, problems } = parseRewardsConfig({ ...operatorRewards, ...broken });
      expect(config).toEqual({ ...operatorRewards, [field]: DEFAULT_REWARDS[field] });
      expect(invalidFields).toEqual([field]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^${field}\\b`));
      expect(problems[0]).toContain(problem);
    },
  );

  test('pointsExpireAfterMonths: 1 and 120 are kept; null and absent mean never', () => {
    expect(parseRewardsConfig({ pointsExpireAfterMonths: 1 }).config.pointsExpireAfterMonths).toBe(1);
    expect(parseRewardsConfig({ pointsExpireAfterMonths: 120 }).config.pointsExpireAfterMonths).toBe(120);
    expect(parseRewardsConfig({ pointsExpireAfterMonths: null }).config.pointsExpireAfterMonths).toBeNull();
    expect(parseRewardsConfig({ dailyPointsCap: 10 }).config.pointsExpireAfterMonths).toBeNull();
  });

  test('several broken fields: each falls back and each is named', () => {
    const { config, invalidFields } = parseRewardsConfig({ ...operatorRewards, pointsPerMetal: -2, ranks: {} });
    expect(config).toEqual({ ...operatorRewards, pointsPerMetal: 20, ranks: DEFAULT_REWARDS.ranks });
    expect(invalidFields).toEqual(['pointsPerMetal', 'ranks']);
  });
});

describe('reading config/rewards', () => {
  const entries: Record<string, unknown>[] = [];
  let rewardsConfigFromSnapshot: typeof import('../../src/data/rewardsConfig').rewardsConfigFromSnapshot;

  beforeAll(() => {
    jest.isolateModules(() => {
      require('../../src/log').sendLogsTo((entry: Record<string, unknown>) => entries.push(entry));
      ({ rewardsConfigFromSnapshot } = require('../../src/data/rewardsConfig'));
    });
  });

  test('a typo in ranks keeps the configured daily cap and is logged as an error naming ranks', () => {
    const snapshot = { data: () => ({ dailyPointsCap: 100, ranks: [{ nmae: 'Bronze', minTotalPoints: 0 }] }) };
    const config = rewardsConfigFromSnapshot(snapshot as unknown as DocumentSnapshot);
    expect(config).toEqual({ ...DEFAULT_REWARDS, dailyPointsCap: 100 });
    expect(entries).toEqual([
      expect.objectContaining({ severity: 'ERROR', message: 'rewards_config_invalid', fields: ['ranks'] }),
    ]);
  });
});
