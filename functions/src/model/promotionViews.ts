/**
 * Promotions (contract §16), declared once in TypeBox: the bodies of POST
 * /admin/promotions and /admin/promotions/simulate, the views the service answers,
 * and a transaction's `breakdown`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject, count, id, nullable, stringEnum } from './fields';
import {
  MAX_ITEMS_PER_MATERIAL,
  MAX_PROMOTION_BONUS_POINTS,
  MAX_PROMOTION_BUDGET_POINTS,
  MAX_PROMOTION_KIOSKS,
  MAX_PROMOTION_MIN_ITEMS,
  MAX_PROMOTION_MULTIPLIER,
  MAX_PROMOTION_NAME_LENGTH,
} from './limits';

const instant = (description: string) => Type.String({ format: 'date-time', maxLength: 64, description });

export const BreakdownEntry = closedObject(
  {
    source: stringEnum(['base', 'promotion'] as const),
    promotionId: Type.Optional({ ...id, description: 'The promotion (source `promotion` only)' }),
    name: Type.Optional(Type.String({ description: "The promotion's name when it was applied" })),
    points: { ...count, description: 'Points from this source; never 0 (an entry that gave nothing is left out)' },
  },
  {
    $id: 'BreakdownEntry',
    description: "Where some of a transaction's points came from: the base, or one promotion (contract §16).",
  },
);
export type BreakdownEntry = Static<typeof BreakdownEntry>;

export const breakdownField = Type.Array(BreakdownEntry, {
  description:
    'Why these points: the base first, then the promotions in the order applied (the largest multiplier, then ' +
    'the bonuses by id), summing to `pointsEarned`',
});

const terms = {
  multiplier: nullable(
    Type.Number({
      exclusiveMinimum: 1,
      maximum: MAX_PROMOTION_MULTIPLIER,
      description: 'Above 1, at most 10, at most one decimal: adds floor(base × (multiplier − 1))',
    }),
  ),
  bonusPoints: nullable(
    Type.Integer({ minimum: 1, maximum: MAX_PROMOTION_BONUS_POINTS, description: 'Points added to the deposit' }),
  ),
  minItems: nullable(
    Type.Integer({ minimum: 1, maximum: MAX_PROMOTION_MIN_ITEMS, description: 'The fewest items a deposit needs' }),
  ),
  startsAt: nullable(instant('From when deposits (by `occurredAt`) get it, RFC 3339; null: open')),
  endsAt: nullable(instant('Until when (excluded), RFC 3339, after `startsAt`; null: open')),
  hours: nullable(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: "When in the week, OpenStreetMap `opening_hours` syntax in the kiosk's time zone; null: any time",
    }),
  ),
  kioskIds: nullable(
    Type.Array(id, { minItems: 1, maxItems: MAX_PROMOTION_KIOSKS, description: 'The kiosks; null: every kiosk' }),
  ),
};

const promotionName = Type.String({ minLength: 1, maxLength: MAX_PROMOTION_NAME_LENGTH });
const budgetPoints = nullable(
  Type.Integer({
    minimum: 1,
    maximum: MAX_PROMOTION_BUDGET_POINTS,
    description: 'The most points it gives in all; null: no limit',
  }),
);

/** A promotion as POST /admin/promotions (or the CLI) gives it: an omitted field takes its default. */
export const promotionBody = closedObject({
  id,
  name: promotionName,
  active: Type.Optional(nullable(Type.Boolean({ description: 'Default true' }))),
  startsAt: Type.Optional(terms.startsAt),
  endsAt: Type.Optional(terms.endsAt),
  hours: Type.Optional(terms.hours),
  kioskIds: Type.Optional(terms.kioskIds),
  minItems: Type.Optional(terms.minItems),
  multiplier: Type.Optional(terms.multiplier),
  bonusPoints: Type.Optional(terms.bonusPoints),
  budgetPoints: Type.Optional(budgetPoints),
});
export type PromotionBody = Static<typeof promotionBody>;

export const simulateBody = closedObject({
  kioskId: id,
  userId: Type.Optional(nullable({ ...id, description: 'Whose daily cap counts; none: a user who earned nothing' })),
  plasticCount: Type.Integer({ minimum: 0, maximum: MAX_ITEMS_PER_MATERIAL }),
  metalCount: Type.Integer({ minimum: 0, maximum: MAX_ITEMS_PER_MATERIAL }),
  occurredAt: Type.Optional(nullable(instant('When the deposit would be made; default now'))),
});
export type SimulateBody = Static<typeof simulateBody>;

/** A promotion as apps see it (GET /promotions): no budget figures. */
export const PublicPromotion = closedObject(
  { id, name: promotionName, ...terms },
  { $id: 'PublicPromotion', description: 'A promotion a deposit may get (contract §16).' },
);
export type PublicPromotionView = Static<typeof PublicPromotion>;

export const AdminPromotion = closedObject(
  {
    id,
    name: promotionName,
    active: Type.Boolean(),
    ...terms,
    budgetPoints,
    pointsGiven: {
      ...count,
      description: 'Points given so far: the sum of its breakdown entries, every award answered before included',
    },
    createdAt: instant('ISO 8601 UTC'),
    updatedAt: instant('ISO 8601 UTC'),
  },
  { $id: 'AdminPromotion', description: 'A promotion as its operator sees it, with what it gave (contract §16).' },
);
export type AdminPromotionView = Static<typeof AdminPromotion>;

export const SimulationResult = closedObject(
  {
    pointsEarned: count,
    breakdown: breakdownField,
    capped: Type.Boolean({ description: "The daily cap of the deposit's UTC day would cut the points" }),
  },
  { description: 'What the deposit would earn now' },
);
