/**
 * The response schemas of the rewards catalog and redemptions (componentSchemas.ts names
 * them in the API description), with an example of each.
 */
import type { RedeemedFrom } from '../data/ledger';
import type { RedemptionView } from '../data/redemptions';
import type { AdminRewardView, RewardView } from '../data/rewards';
import { REWARD_KINDS, type RewardKind } from '../domain/redemption';
import { VOUCHER_CODE_LENGTH } from '../domain/voucherCode';
import { objectSchemaOf } from './components';
import { id } from './schemaFields';

const kind = {
  type: 'string',
  enum: REWARD_KINDS as unknown as RewardKind[],
  description: '`voucher`: a code to show at a partner; `donation`: the points go to a cause, no code',
} as const;
const cost = { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'Points' } as const;

export const rewardSchema = objectSchemaOf<RewardView>('A reward of the catalog, as anyone sees it.', {
  id,
  name: { type: 'string' },
  description: { type: 'string' },
  cost,
  kind,
  available: { type: 'boolean', description: 'false when the stock is 0' },
  stock: { type: 'integer', minimum: 0, nullable: true, description: 'Units left; null: unlimited' },
});

export const adminRewardSchema = objectSchemaOf<AdminRewardView>(
  'A reward as operators see it: also whether it is offered.',
  {
    ...rewardSchema.properties,
    active: { type: 'boolean', description: 'Offered in the catalog (GET /rewards); false: taken out' },
  },
);

export const redemptionSchema = objectSchemaOf<RedemptionView>(
  'A reward a user redeemed.',
  {
    id: { ...id, description: 'The redemption id; the same on every replay of one Idempotency-Key' },
    rewardId: id,
    rewardName: { type: 'string', description: 'The name of the reward when it was redeemed' },
    kind,
    cost: { ...cost, description: 'The points it took' },
    code: {
      type: 'string',
      nullable: true,
      minLength: VOUCHER_CODE_LENGTH,
      pattern: '^[0-9A-HJKMNP-TV-Z]+$',
      description: "A voucher's code (Crockford base32: no I, L, O, U); null for a donation",
    },
    status: {
      type: 'string',
      enum: ['issued', 'cancelled'],
      description: '`cancelled`: an operator cancelled it and the points went back',
    },
    createdAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC' },
    cancelledAt: { type: 'string', format: 'date-time', description: 'When it was cancelled, ISO 8601 UTC' },
    cancelReason: { type: 'string', description: 'Why an operator cancelled it' },
  },
  { optional: ['cancelledAt', 'cancelReason'] },
);

export const redeemedFromSchema = objectSchemaOf<RedeemedFrom>(
  'The redemption a `redeem` or `refund` entry of the history came from.',
  { id, rewardId: id, rewardName: { type: 'string' } },
);

export const rewardExample: RewardView = {
  id: 'coffee-voucher',
  name: 'Coffee at Kaffee Alex',
  description: 'One coffee of any size at Kaffee Alex, Alexanderplatz',
  cost: 500,
  kind: 'voucher',
  available: true,
  stock: 42,
};

export const redemptionExample: RedemptionView = {
  id: '3b9e0f7a1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0e1f2a3b',
  rewardId: 'coffee-voucher',
  rewardName: 'Coffee at Kaffee Alex',
  kind: 'voucher',
  cost: 500,
  code: '7KQ2M9XH4TZP',
  status: 'issued',
  createdAt: '2026-11-23T10:04:11.392Z',
};
