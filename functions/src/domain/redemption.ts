import { conflict } from '../errors';

export const REWARD_KINDS = ['voucher', 'donation'] as const;
/** `voucher`: the user gets a code to show at a partner; `donation`: the points go to a cause, no code. */
export type RewardKind = (typeof REWARD_KINDS)[number];

/** A reward as POST /admin/rewards (or the CLI) gives it: absent fields are kept on an update. */
export interface RewardDefinition {
  id: string;
  name: string;
  description?: string;
  cost: number;
  kind: RewardKind;
  /** null: unlimited. */
  stock?: number | null;
  active?: boolean;
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
