/**
 * The response schemas of points changing hands: the rewards catalog, redemptions,
 * the history's entries and operators' adjustments, in TypeBox; the views' types are
 * derived from them.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { LedgerKind } from '../../data/ledger';
import { MAX_VOUCHER_VALID_DAYS, REWARD_KINDS } from '../../domain/redemption';
import { expiresAt, usedAt, voucherStatus } from './partnerViews';
import { VOUCHER_CODE_LENGTH } from '../../domain/voucherCode';
import { closedObject, id, nullable, stringEnum, successBody } from './fields';

const kind = stringEnum(REWARD_KINDS, {
  description: '`voucher`: a code to show at a partner; `donation`: the points go to a cause, no code',
});
const cost = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Points' });

const rewardFields = {
  id,
  name: Type.String(),
  description: Type.String(),
  cost,
  kind,
  available: Type.Boolean({ description: 'false when the stock is 0' }),
  stock: nullable(Type.Integer({ minimum: 0, description: 'Units left; null: unlimited' })),
};

export const Reward = closedObject(rewardFields, {
  $id: 'Reward',
  description: 'A reward of the catalog, as anyone sees it.',
});
export type RewardView = Static<typeof Reward>;

export const AdminReward = closedObject(
  {
    ...rewardFields,
    active: Type.Boolean({ description: 'Offered in the catalog (GET /rewards); false: taken out' }),
    partnerId: nullable({ ...id, description: 'The partner who honours its vouchers; null: any partner' }),
    validDays: Type.Integer({
      minimum: 1,
      maximum: MAX_VOUCHER_VALID_DAYS,
      description: 'Days a voucher is honoured after it is issued',
    }),
  },
  { $id: 'AdminReward', description: 'A reward as operators see it: also whether it is offered.' },
);
export type AdminRewardView = Static<typeof AdminReward>;

export const Redemption = closedObject(
  {
    id: { ...id, description: 'The redemption id; the same on every replay of one Idempotency-Key' },
    rewardId: id,
    rewardName: Type.String({ description: 'The name of the reward when it was redeemed' }),
    kind,
    cost: { ...cost, description: 'The points it took' },
    code: nullable(
      Type.String({
        minLength: VOUCHER_CODE_LENGTH,
        pattern: '^[0-9A-HJKMNP-TV-Z]+$',
        description: "A voucher's code (Crockford base32: no I, L, O, U); null for a donation",
      }),
    ),
    status: voucherStatus,
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
    expiresAt,
    usedAt,
    cancelledAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'When it was cancelled, ISO 8601 UTC' }),
    ),
    cancelReason: Type.Optional(Type.String({ description: 'Why an operator cancelled it' })),
  },
  { $id: 'Redemption', description: 'A reward a user redeemed.' },
);
export type RedemptionView = Static<typeof Redemption>;

/** `{ success, redemption, newBalance }`: what a spend and its cancelling answer; `newBalance` is described. */
export const redemptionAnswer = (newBalance: string) =>
  successBody({ redemption: Redemption, newBalance: Type.Integer({ minimum: 0, description: newBalance }) });

export const RedeemedFrom = closedObject(
  { id, rewardId: id, rewardName: Type.String() },
  { $id: 'RedeemedFrom', description: 'The redemption a `redeem` or `refund` entry of the history came from.' },
);
export type RedeemedFromView = Static<typeof RedeemedFrom>;

export const LedgerEntry = closedObject(
  {
    id: Type.String(),
    kind: stringEnum<LedgerKind>(['earn', 'redeem', 'refund', 'adjust', 'expire'], {
      description:
        '`earn`: a deposit; `redeem`/`refund`: a reward and its cancelling; `adjust`: an operator; ' +
        '`expire`: points past the date they were valid through',
    }),
    points: Type.Integer({ description: 'Signed: positive adds to the spendable balance' }),
    balanceAfter: Type.Integer({ minimum: 0, description: 'The spendable balance after this entry' }),
    createdAt: Type.String({ format: 'date-time' }),
    transaction: Type.Optional(
      closedObject(
        {
          id: Type.String(),
          kioskId: Type.String(),
          plasticCount: Type.Integer({ minimum: 0 }),
          metalCount: Type.Integer({ minimum: 0 }),
          occurredAt: Type.String({ format: 'date-time' }),
        },
        { description: 'The deposit an `earn` entry came from' },
      ),
    ),
    redemption: Type.Optional(RedeemedFrom),
    reason: Type.Optional(
      Type.String({ description: 'Why an operator adjusted the balance; which points an `expire` entry took' }),
    ),
  },
  { description: 'One change of the balance' },
);
export type LedgerEntryView = Static<typeof LedgerEntry>;

export const Adjustment = closedObject(
  {
    id: Type.String({ description: 'The id of its ledger entry' }),
    points: Type.Integer({ description: 'Signed: added to both balances' }),
    reason: Type.String(),
    balanceAfter: Type.Integer({ minimum: 0, description: 'The spendable balance after it' }),
  },
  { description: 'The adjustment, as its `adjust` entry in the history shows it (same id)' },
);
export type AdjustmentView = Static<typeof Adjustment>;
