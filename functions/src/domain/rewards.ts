import { capBreakdown, depositWorth, type ApplyingPromotion } from './promotions';
import type { BreakdownEntry } from '../model/promotionViews';
import { MAX_EXPIRE_AFTER_MONTHS, MIN_EXPIRE_AFTER_MONTHS, parseDay, type Day, type ExpiryRule } from './pointsExpiry';

/**
 * Points and ranks. Operators override the defaults in `config/rewards`; a field
 * that does not parse falls back to its own default (see parseRewardsConfig).
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
  /** Points expire after this many months (domain/pointsExpiry.ts); null: never. */
  pointsExpireAfterMonths: number | null;
  /**
   * No points expire before this day: 30 days after `pointsExpireAfterMonths` was last
   * set or lowered (rewards:set writes it, domain/pointsExpiry.ts notBeforeAfterChange); null: no such day.
   */
  pointsExpireNotBefore: Day | null;
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
  pointsExpireAfterMonths: null,
  pointsExpireNotBefore: null,
};

/** When points expire under `config`; null: never. */
export const expiryRuleOf = (config: RewardsConfig): ExpiryRule | null =>
  config.pointsExpireAfterMonths === null
    ? null
    : { afterMonths: config.pointsExpireAfterMonths, notBefore: config.pointsExpireNotBefore };

const isNonNegativeInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** What parseRewardsConfig found wrong: each problem names its field, which alone fell back to its default. */
export interface RewardsConfigProblems {
  config: RewardsConfig;
  /** The fields that fell back to their defaults, in the order of RewardsConfig. */
  invalidFields: (keyof RewardsConfig)[];
  /** One line per problem, each starting with its field. */
  problems: string[];
}

/** A whole number of points: what each points field must be. */
function pointsField(
  raw: Record<string, unknown>,
  field: 'pointsPerPlastic' | 'pointsPerMetal' | 'dailyPointsCap',
): { value: number } | { problem: string } {
  const value = raw[field] ?? DEFAULT_REWARDS[field];
  return isNonNegativeInt(value) ? { value } : { problem: `${field} must be a non-negative integer` };
}

function ranksField(candidate: unknown): { value: Rank[] } | { problem: string } {
  if (candidate === undefined) return { value: DEFAULT_REWARDS.ranks };
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
  if (!valid) return { problem: 'ranks must be a non-empty list of { name, minTotalPoints }' };
  const ranks = (candidate as Rank[])
    .map((r) => ({ name: r.name, minTotalPoints: r.minTotalPoints }))
    .sort((a, b) => a.minTotalPoints - b.minTotalPoints);
  if (ranks[0].minTotalPoints !== 0) return { problem: 'ranks: the lowest rank must start at minTotalPoints 0' };
  if (new Set(ranks.map((r) => r.minTotalPoints)).size !== ranks.length) {
    return { problem: 'ranks: two ranks share the same minTotalPoints' };
  }
  return { value: ranks };
}

function expiryField(candidate: unknown): { value: number | null } | { problem: string } {
  if (candidate === undefined || candidate === null) return { value: null };
  const valid =
    Number.isSafeInteger(candidate) &&
    (candidate as number) >= MIN_EXPIRE_AFTER_MONTHS &&
    (candidate as number) <= MAX_EXPIRE_AFTER_MONTHS;
  return valid
    ? { value: candidate as number }
    : {
        problem: `pointsExpireAfterMonths must be a whole number of months from ${MIN_EXPIRE_AFTER_MONTHS} to ${MAX_EXPIRE_AFTER_MONTHS}, or null (never)`,
      };
}

function notBeforeField(candidate: unknown): { value: Day | null } | { problem: string } {
  if (candidate === undefined || candidate === null) return { value: null };
  return typeof candidate === 'string' && parseDay(candidate)
    ? { value: candidate }
    : { problem: 'pointsExpireNotBefore must be a day, YYYY-MM-DD, or null' };
}

/**
 * Reads an operator-written config document, field by field: a malformed field falls
 * back to its own default alone (a typo in `ranks` leaves the daily cap as
 * configured). Returns the problems instead of throwing so the caller can log them
 * and keep awarding.
 */
export function parseRewardsConfig(raw: Record<string, unknown> | undefined): RewardsConfigProblems {
  if (!raw) return { config: DEFAULT_REWARDS, invalidFields: [], problems: [] };
  const invalidFields: (keyof RewardsConfig)[] = [];
  const problems: string[] = [];
  const valueOf = <F extends keyof RewardsConfig>(
    field: F,
    parsed: { value: RewardsConfig[F] } | { problem: string },
  ): RewardsConfig[F] => {
    if ('value' in parsed) return parsed.value;
    invalidFields.push(field);
    problems.push(parsed.problem);
    return DEFAULT_REWARDS[field];
  };
  const config: RewardsConfig = {
    pointsPerPlastic: valueOf('pointsPerPlastic', pointsField(raw, 'pointsPerPlastic')),
    pointsPerMetal: valueOf('pointsPerMetal', pointsField(raw, 'pointsPerMetal')),
    dailyPointsCap: valueOf('dailyPointsCap', pointsField(raw, 'dailyPointsCap')),
    ranks: valueOf('ranks', ranksField(raw.ranks)),
    pointsExpireAfterMonths: valueOf('pointsExpireAfterMonths', expiryField(raw.pointsExpireAfterMonths)),
    pointsExpireNotBefore: valueOf('pointsExpireNotBefore', notBeforeField(raw.pointsExpireNotBefore)),
  };
  return { config, invalidFields, problems };
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

/**
 * Points earned per UTC day (`YYYY-MM-DD` → points), kept on the user so that the
 * daily cap holds for every day a kiosk may still upload deposits of, not only today.
 */
export type EarningsByDay = Readonly<Record<string, number>>;

export interface UserTotals {
  currentPoints: number;
  totalPoints: number;
  recycledCount: number;
  earnedByDay: EarningsByDay;
}

export interface Award extends UserTotals {
  /** What the deposit earns: its full points, or what was left under the day's cap. */
  pointsEarned: number;
  totalItems: number;
  balanceBefore: number;
  rank: string;
  /** The cap reduced the points (the items all count; a deposit is never refused for the cap). */
  capped: boolean;
  /** Why these points: the base, then each promotion's (§16), summing to pointsEarned. */
  breakdown: BreakdownEntry[];
}

export const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10);

/**
 * The award for a deposit made at `occurredAt`, worth its base and the promotions that
 * apply to it (domain/promotions.ts depositWorth), counted against the cap of that UTC
 * day. `oldestDay` is the first day a deposit may still arrive for: earnings of
 * earlier days are dropped from the user's record, which so stays a few entries long.
 */
export function computeAward(
  config: RewardsConfig,
  user: UserTotals,
  counts: {
    plasticCount: number;
    metalCount: number;
    /** What the deposit was worth when it was recorded (a claim, §18): the cap cuts it; absent: its worth now. */
    recorded?: readonly BreakdownEntry[];
  },
  occurredAt: Date,
  oldestDay: string,
  promotions: ApplyingPromotion[] = [],
): Award {
  const base = pointsFor(config, counts.plasticCount, counts.metalCount);
  const totalItems = counts.plasticCount + counts.metalCount;
  const day = utcDay(occurredAt);
  const earnedBefore = user.earnedByDay[day] ?? 0;
  const capLeft = config.dailyPointsCap - earnedBefore;
  const { pointsEarned, breakdown, capped } = counts.recorded
    ? capBreakdown(counts.recorded, capLeft)
    : depositWorth(base, promotions, capLeft);
  const totalPoints = user.totalPoints + pointsEarned;
  const earnedByDay: Record<string, number> = {};
  for (const [earnedDay, points] of Object.entries(user.earnedByDay)) {
    if (earnedDay >= oldestDay) earnedByDay[earnedDay] = points;
  }
  earnedByDay[day] = earnedBefore + pointsEarned;
  return {
    earnedByDay,
    capped,
    breakdown,
    pointsEarned,
    totalItems,
    balanceBefore: user.currentPoints,
    currentPoints: user.currentPoints + pointsEarned,
    totalPoints,
    recycledCount: user.recycledCount + totalItems,
    rank: rankFor(config, totalPoints),
  };
}
