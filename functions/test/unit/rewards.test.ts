import { DEFAULT_REWARDS, computeAward, parseRewardsConfig, pointsFor, rankFor } from '../../src/domain/rewards';

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

describe('award', () => {
  test('raises balance, lifetime points and recycled count, and ranks by lifetime points', () => {
    const award = computeAward(
      DEFAULT_REWARDS,
      { currentPoints: 10, totalPoints: 990, recycledCount: 40 },
      { plasticCount: 1, metalCount: 0 },
      NOON,
    );
    expect(award).toEqual({
      earnedToday: { day: '2026-11-22', points: 10 },
      withinDailyCap: true,
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
    const award = computeAward(
      DEFAULT_REWARDS,
      { currentPoints: 0, totalPoints: 6000, recycledCount: 500 },
      { plasticCount: 0, metalCount: 1 },
      NOON,
    );
    expect(award.rank).toBe('Gold');
    expect(award.currentPoints).toBe(20);
  });
});

describe('daily cap', () => {
  const user = { currentPoints: 0, totalPoints: 0, recycledCount: 0 };

  test('5,000 points per UTC day by default, counted across awards of the same day', () => {
    const earlier = { ...user, earnedToday: { day: '2026-11-22', points: 4980 } };
    expect(computeAward(DEFAULT_REWARDS, earlier, { plasticCount: 2, metalCount: 0 }, NOON).withinDailyCap).toBe(true);
    const atCap = computeAward(DEFAULT_REWARDS, earlier, { plasticCount: 3, metalCount: 0 }, NOON);
    expect(atCap.withinDailyCap).toBe(false);
    expect(atCap.earnedToday).toEqual({ day: '2026-11-22', points: 5010 });
  });

  test('a new UTC day starts from zero', () => {
    const yesterday = { ...user, earnedToday: { day: '2026-11-21', points: 5000 } };
    const award = computeAward(DEFAULT_REWARDS, yesterday, { plasticCount: 0, metalCount: 1 }, NOON);
    expect(award.withinDailyCap).toBe(true);
    expect(award.earnedToday).toEqual({ day: '2026-11-22', points: 20 });
  });

  test('one award larger than the cap is refused whole', () => {
    const award = computeAward(DEFAULT_REWARDS, user, { plasticCount: 1000, metalCount: 0 }, NOON);
    expect(award.withinDailyCap).toBe(false);
  });

  test('operators set the cap in config/rewards', () => {
    const { config } = parseRewardsConfig({ dailyPointsCap: 100 });
    expect(computeAward(config, user, { plasticCount: 10, metalCount: 0 }, NOON).withinDailyCap).toBe(true);
    expect(computeAward(config, user, { plasticCount: 11, metalCount: 0 }, NOON).withinDailyCap).toBe(false);
  });
});

describe('operator config', () => {
  test('absent: the defaults', () => {
    expect(parseRewardsConfig(undefined)).toEqual({ config: DEFAULT_REWARDS, problems: [] });
  });

  test.each([
    [{ pointsPerPlastic: -1 }, 'pointsPerPlastic'],
    [{ pointsPerMetal: 1.5 }, 'pointsPerMetal'],
    [{ pointsPerMetal: '20' }, 'pointsPerMetal'],
    [{ dailyPointsCap: -5 }, 'dailyPointsCap'],
    [{ ranks: [] }, 'ranks'],
    [{ ranks: [{ name: 'Only', minTotalPoints: 10 }] }, 'lowest rank'],
    [
      {
        ranks: [
          { name: 'A', minTotalPoints: 0 },
          { name: 'B', minTotalPoints: 0 },
        ],
      },
      'same minTotalPoints',
    ],
    [{ ranks: [{ name: '', minTotalPoints: 0 }] }, 'ranks'],
  ])('broken %p: defaults, and the problem named', (raw, problem) => {
    const { config, problems } = parseRewardsConfig(raw as Record<string, unknown>);
    expect(config).toBe(DEFAULT_REWARDS);
    expect(problems.join('; ')).toContain(problem);
  });
});
