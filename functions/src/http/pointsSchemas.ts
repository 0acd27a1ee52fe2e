/**
 * Request bodies that spend and change points (rewards, redemptions, adjustments), as
 * JSON Schema; listed with the others in schemas.ts's bodySchemas.
 */
import type { JSONSchemaType } from 'ajv';
import { MAX_ADJUSTMENT_POINTS, MAX_ADJUSTMENT_REASON_LENGTH } from '../domain/adjustment';
import {
  MAX_REWARD_COST,
  MAX_REWARD_STOCK,
  REWARD_KINDS,
  type RewardDefinition,
  type RewardKind,
} from '../domain/redemption';
import { id, title } from './schemaFields';

export interface AdjustmentBody {
  points: number;
  reason: string;
}
export const adjustmentBody: JSONSchemaType<AdjustmentBody> = {
  type: 'object',
  properties: {
    points: {
      type: 'integer',
      minimum: -MAX_ADJUSTMENT_POINTS,
      maximum: MAX_ADJUSTMENT_POINTS,
      not: { const: 0 },
      description: 'Added to both balances (negative: taken from both); not 0',
    },
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_ADJUSTMENT_REASON_LENGTH,
      pattern: '\\S',
      description: "Why, for the user's history and the books",
    },
  },
  required: ['points', 'reason'],
  additionalProperties: false,
};

export type AdminRewardBody = RewardDefinition;
export const adminRewardBody: JSONSchemaType<AdminRewardBody> = {
  type: 'object',
  properties: {
    id,
    name: title,
    description: { type: 'string', maxLength: 2000, nullable: true },
    cost: { type: 'integer', minimum: 1, maximum: MAX_REWARD_COST, description: 'Points' },
    kind: { type: 'string', enum: REWARD_KINDS as unknown as RewardKind[] },
    stock: { type: 'integer', minimum: 0, maximum: MAX_REWARD_STOCK, nullable: true, description: 'null: unlimited' },
    active: { type: 'boolean', nullable: true },
  },
  required: ['id', 'name', 'cost', 'kind'],
  additionalProperties: false,
};

export interface RedeemBody {
  rewardId: string;
}
export const redeemBody: JSONSchemaType<RedeemBody> = {
  type: 'object',
  properties: { rewardId: id },
  required: ['rewardId'],
  additionalProperties: false,
};

export interface CancelRedemptionBody {
  reason: string;
}
export const cancelRedemptionBody: JSONSchemaType<CancelRedemptionBody> = {
  type: 'object',
  properties: { reason: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } },
  required: ['reason'],
  additionalProperties: false,
};
