import type { RewardsConfig } from '../src/domain/rewards';

/** A valid operator's rewards config (config/rewards) in which every value differs from DEFAULT_REWARDS. */
export const operatorRewards: RewardsConfig = {
  ranks: [
    { name: 'Seedling', minTotalPoints: 0 },
    { name: 'Tree', minTotalPoints: 50 },
  ],
  pointsPerPlastic: 1,
  pointsPerMetal: 2,
  dailyPointsCap: 300,
  pointsExpireAfterMonths: 6,
  pointsExpireNotBefore: '2026-03-01',
};
