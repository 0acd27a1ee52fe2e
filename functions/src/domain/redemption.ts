import type { AdminRewardBody } from '../model/requestBodies';
import { conflict } from '../errors';
import { MAX_REWARD_COST, MAX_REWARD_STOCK, MAX_VOUCHER_VALID_DAYS } from '../model/limits';
import { REWARD_KINDS } from '../model/vocabulary';

/** A reward as POST /admin/rewards (or the CLI) gives it: absent fields are kept on an update. */
export type RewardDefinition = AdminRewardBody;

const DAY_MS = 24 * 60 * 60_000;

/** When a voucher issued at `createdAt` stops being honoured. */
export const voucherExpiry = (createdAt: Date, validDays: number): Date =>
  new Date(createdAt.getTime() + validDays * DAY_MS);

/**
 * The fields of a reward that break the rules POST /admin/rewards enforces: a
 * document edited by hand in the console. Spending on one could write a balance that
 * is not a number, so it is refused whole.
 */
export function invalidRewardFields(reward: {
  name: unknown;
  description: unknown;
  cost: unknown;
  kind: unknown;
  stock: unknown;
  partnerId: unknown;
  validDays: unknown;
}): string[] {
  const integerWithin = (value: unknown, min: number, max: number) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
  return [
    typeof reward.name === 'string' && reward.name.length > 0 ? [] : ['name'],
    typeof reward.description === 'string' ? [] : ['description'],
    integerWithin(reward.cost, 1, MAX_REWARD_COST) ? [] : ['cost'],
    (REWARD_KINDS as readonly unknown[]).includes(reward.kind) ? [] : ['kind'],
    reward.stock === null || integerWithin(reward.stock, 0, MAX_REWARD_STOCK) ? [] : ['stock'],
    reward.partnerId === null || (typeof reward.partnerId === 'string' && reward.partnerId.length > 0)
      ? []
      : ['partnerId'],
    integerWithin(reward.validDays, 1, MAX_VOUCHER_VALID_DAYS) ? [] : ['validDays'],
  ].flat();
}

/** What a redemption checks of its reward and the user's spendable balance, in this order. */
export function assertRedeemable(
  reward: { id: string; active: boolean; stock: number | null; cost: number },
  currentPoints: number,
): void {
  if (!reward.active) throw conflict(`Reward ${reward.id} is not offered any more`, 'reward-inactive');
  if (reward.stock !== null && reward.stock <= 0) throw conflict(`Reward ${reward.id} is out of stock`, 'out-of-stock');
  if (currentPoints < reward.cost) {
    throw conflict(
      `Reward ${reward.id} costs ${reward.cost} points; the balance is ${currentPoints}`,
      'insufficient-points',
    );
  }
}
