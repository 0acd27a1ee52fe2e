import { adjustBalances } from '../../src/domain/adjustment';
import { keyedAdjustmentId, keyedTransactionId } from '../../src/domain/idempotency';
import { DEFAULT_REWARDS } from '../../src/domain/rewards';
import { apiErrorOf } from './api-error';

const silverAt = DEFAULT_REWARDS.ranks[1].minTotalPoints;

describe('adjustBalances', () => {
  test('moves both balances; the rank follows the total, up and down', () => {
    const up = adjustBalances(DEFAULT_REWARDS, { currentPoints: 10, totalPoints: silverAt - 5 }, 5);
    expect(up).toEqual({ currentPoints: 15, totalPoints: silverAt, rank: DEFAULT_REWARDS.ranks[1].name });
    const down = adjustBalances(DEFAULT_REWARDS, { currentPoints: 15, totalPoints: silverAt }, -1);
    expect(down).toEqual({ currentPoints: 14, totalPoints: silverAt - 1, rank: DEFAULT_REWARDS.ranks[0].name });
  });

  test.each([
    [{ currentPoints: 5, totalPoints: 100 }, -6, 'spendable balance (5)'],
    [{ currentPoints: 100, totalPoints: 50 }, -60, 'earned total (50)'],
  ])('%j by %d: 409 insufficient-points naming the %s', (before, points, what) => {
    const thrown = apiErrorOf(() => adjustBalances(DEFAULT_REWARDS, before, points));
    expect(thrown).toMatchObject({ status: 409, code: 'insufficient-points' });
    expect(thrown.message).toContain(what);
  });

  test('exactly to 0 is fine', () => {
    expect(adjustBalances(DEFAULT_REWARDS, { currentPoints: 7, totalPoints: 7 }, -7)).toMatchObject({
      currentPoints: 0,
      totalPoints: 0,
    });
  });
});

describe('keyedAdjustmentId', () => {
  test('per user and key, never a transaction id of the same names', () => {
    expect(keyedAdjustmentId('u', 'k')).toBe(keyedAdjustmentId('u', 'k'));
    expect(keyedAdjustmentId('u', 'k')).not.toBe(keyedAdjustmentId('v', 'k'));
    expect(keyedAdjustmentId('u', 'k')).not.toBe(keyedTransactionId('u', 'k'));
    expect(keyedAdjustmentId('a","b', 'c')).not.toBe(keyedAdjustmentId('a', 'b","c'));
  });
});
