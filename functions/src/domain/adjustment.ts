import { conflict } from '../errors';
import { rankFor, type RewardsConfig } from './rewards';

export interface Balances {
  currentPoints: number;
  totalPoints: number;
}

/**
 * An operator's adjustment moves both balances by `points`: a correction of what a
 * user earned (a deposit the kiosk lost, points given by mistake), so the rank
 * follows it. Neither balance may go below 0: points already spent cannot be taken
 * back, and nobody ever earned less than nothing.
 */
export function adjustBalances(config: RewardsConfig, before: Balances, points: number): Balances & { rank: string } {
  const currentPoints = before.currentPoints + points;
  const totalPoints = before.totalPoints + points;
  if (currentPoints < 0 || totalPoints < 0) {
    throw conflict(
      `An adjustment of ${points} would take the user's ${currentPoints < 0 ? `spendable balance (${before.currentPoints})` : `earned total (${before.totalPoints})`} below 0`,
      'insufficient-points',
    );
  }
  return { currentPoints, totalPoints, rank: rankFor(config, totalPoints) };
}
