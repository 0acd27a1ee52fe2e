/**
 * Points and ranks. Operators override the defaults in `config/rewards`; a config
 * that does not parse falls back to the defaults as a whole (see parseRewardsConfig).
 */
export interface Rank {
  name: string;
  minTotalPoints: number;
}

export interface RewardsConfig {
  pointsPerPlastic: number;
  pointsPerMetal: number;
  /** Most points one user may earn per UTC day; a stolen kiosk key cannot farm more. */
  dailyPointsCap: number;
  /** Sorted by minTotalPoints ascending; the first one starts at 0. */
  ranks: Rank[];
}

export const DEFAULT_REWARDS: RewardsConfig = {
  pointsPerPlastic: 10,
  pointsPerMetal: 20,
  dailyPointsCap: 5000,
  ranks: [
    { name: 'Bronze', minTotalPoints: 0 },
    { name: 'Silver', minTotalPoints: 1000 },
    { name: 'Gold', minTotalPoints: 5000 },
    { name: 'Platinum', minTotalPoints: 20000 },
  ],
};

const isNonNegativeInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * Reads an operator-written config document. Returns the problems instead of
 * throwing so the caller can log them and keep awarding with the defaults.
 */
export function parseRewardsConfig(raw: Record<string, unknown> | undefined): {
  config: RewardsConfig;
  problems: string[];
} {
  if (!raw) return { config: DEFAULT_REWARDS, problems: [] };
  const problems: string[] = [];
  const pointsPerPlastic = raw.pointsPerPlastic ?? DEFAULT_REWARDS.pointsPerPlastic;
  const pointsPerMetal = raw.pointsPerMetal ?? DEFAULT_REWARDS.pointsPerMetal;
  if (!isNonNegativeInt(pointsPerPlastic)) problems.push('pointsPerPlastic must be a non-negative integer');
  if (!isNonNegativeInt(pointsPerMetal)) problems.push('pointsPerMetal must be a non-negative integer');
  const dailyPointsCap = raw.dailyPointsCap ?? DEFAULT_REWARDS.dailyPointsCap;
  if (!isNonNegativeInt(dailyPointsCap)) problems.push('dailyPointsCap must be a non-negative integer');

  let ranks = DEFAULT_REWARDS.ranks;
  if (raw.ranks !== undefined) {
    const candidate = raw.ranks;
    const valid =
      Array.isArray(candidate) &&
      candidate.length > 0 &&
      candidate.every(
        (r) =>
          typeof r === 'object' &&
          r !== null &&
          typeof (r as Rank).name === 'string' &&
          (r as Rank).name.length > 0 &&
          isNonNegativeInt((r as Rank).minTotalPoints),
      );
    if (!valid) {
      problems.push('ranks must be a non-empty list of { name, minTotalPoints }');
    } else {
      ranks = (candidate as Rank[])
        .map((r) => ({ name: r.name, minTotalPoints: r.minTotalPoints }))
        .sort((a, b) => a.minTotalPoints - b.minTotalPoints);
      if (ranks[0].minTotalPoints !== 0) problems.push('the lowest rank must start at minTotalPoints 0');
      if (new Set(ranks.map((r) => r.minTotalPoints)).size !== ranks.length) {
        problems.push('two ranks share the same minTotalPoints');
      }
    }
  }
  if (problems.length > 0) return { config: DEFAULT_REWARDS, problems };
  return {
    config: {
      pointsPerPlastic: pointsPerPlastic as number,
      pointsPerMetal: pointsPerMetal as number,
      dailyPointsCap: dailyPointsCap as number,
      ranks,
    },
    problems,
  };
}

export function pointsFor(config: RewardsConfig, plasticCount: number, metalCount: number): number {
  return plasticCount * config.pointsPerPlastic + metalCount * config.pointsPerMetal;
}

/** Rank follows points ever earned, so spending points never demotes a user. */
export function rankFor(config: RewardsConfig, totalPoints: number): string {
  let rank = config.ranks[0].name;
  for (const candidate of config.ranks) {
    if (totalPoints >= candidate.minTotalPoints) rank = candidate.name;
  }
  return rank;
}

/** Points earned on one UTC day, kept on the user to enforce the daily cap. */
export interface DailyEarnings {
  day: string;
  points: number;
}

export interface UserTotals {
  currentPoints: number;
  totalPoints: number;
  recycledCount: number;
  earnedToday?: DailyEarnings;
}

export interface Award extends UserTotals {
  pointsEarned: number;
  totalItems: number;
  balanceBefore: number;
  rank: string;
  earnedToday: DailyEarnings;
  /** False when this award would take the user past the daily cap: it must be refused whole. */
  withinDailyCap: boolean;
}

export const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10);

export function computeAward(
  config: RewardsConfig,
  user: UserTotals,
  counts: { plasticCount: number; metalCount: number },
  now: Date,
): Award {
  const pointsEarned = pointsFor(config, counts.plasticCount, counts.metalCount);
  const totalItems = counts.plasticCount + counts.metalCount;
  const totalPoints = user.totalPoints + pointsEarned;
  const day = utcDay(now);
  const earnedBefore = user.earnedToday?.day === day ? user.earnedToday.points : 0;
  return {
    earnedToday: { day, points: earnedBefore + pointsEarned },
    withinDailyCap: earnedBefore + pointsEarned <= config.dailyPointsCap,
    pointsEarned,
    totalItems,
    balanceBefore: user.currentPoints,
    currentPoints: user.currentPoints + pointsEarned,
    totalPoints,
    recycledCount: user.recycledCount + totalItems,
    rank: rankFor(config, totalPoints),
  };
}
