/**
 * The response schemas of points changing hands: the rewards catalog, redemptions,
 * the history's entries and operators' adjustments, in TypeBox; the views' types are
 * derived from them.
 */
import { breakdownField } from './promotionViews';
import { Type, type Static } from '@sinclair/typebox';
import { expiresAt, usedAt, voucherStatus } from './partnerViews';
import { closedObject, count, id, nullable, stringEnum, successBody } from './fields';
import { Transaction, User } from './views';
import { type LedgerKind, REWARD_KINDS } from './vocabulary';
import { MAX_VOUCHER_VALID_DAYS, VOUCHER_CODE_LENGTH } from './limits';

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
    kind: stringEnum<LedgerKind>(['earn', 'redeem', 'refund', 'adjust', 'expire', 'forfeit'], {
      description:
        '`earn`: a deposit; `redeem`/`refund`: a reward and its cancelling; `adjust`: an operator; ' +
        '`expire`: points past the date they were valid through; ' +
        '`forfeit`: the balance written off when the user was erased',
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
          // Promotions (contract §16).
          breakdown: breakdownField,
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

/** A notification of the user's in-app inbox, as stored (their export). */
export const Notification = closedObject(
  {
    id,
    type: Type.String({
      description:
        "`transaction`, `redemption`, `message` (an operator's), `points-expiring`, `voucher-used`, " +
        '`points-released` or `points-rejected` (held points reviewed, contract §17)',
    }),
    title: Type.String(),
    body: Type.String(),
    data: Type.Record(Type.String(), Type.String(), { description: 'What the app opens from it' }),
    read: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
  },
  { description: 'One notification of the in-app inbox' },
);
export type NotificationView = Static<typeof Notification>;

/** GET /user/{id}/export: everything stored about the person (contract §15), never the push token itself. */
export const UserExport = successBody({
  exportedAt: Type.String({ format: 'date-time', description: 'When the export was read, ISO 8601 UTC' }),
  profile: closedObject(
    {
      ...User.properties,
      createdAt: Type.String({ format: 'date-time', description: 'When the profile was made, ISO 8601 UTC' }),
      earnedByDay: Type.Record(Type.String(), count, {
        description: 'Points earned per UTC day (`YYYY-MM-DD`), as the daily cap counts them',
      }),
    },
    { description: 'The profile as stored (whether a push token is held, never the token)' },
  ),
  account: nullable(
    closedObject(
      {
        email: nullable(Type.String({ description: 'The sign-in address' })),
        displayName: nullable(Type.String()),
      },
      { description: 'The Firebase Auth account; null: none' },
    ),
  ),
  ledger: Type.Array(LedgerEntry, { description: 'Every change of the balance, newest first' }),
  transactions: Type.Array(Transaction, { description: 'Every deposit, newest first' }),
  redemptions: Type.Array(Redemption, { description: 'Every reward redeemed, newest first' }),
  notifications: Type.Array(Notification, { description: 'The in-app inbox, newest first' }),
});
export type UserExportView = Static<typeof UserExport>;
