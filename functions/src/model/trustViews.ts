/**
 * Trust (contract §17): what the API shows of holds and limits, and what its review
 * endpoints take. The lists themselves live in model/trustVocabulary.ts (no TypeBox).
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject, count, id, nullable, stringEnum } from './fields';
import { HOLD_REASONS, HOLD_RESOLUTIONS, type HoldResolution } from './trustVocabulary';

const instant = (description: string) => Type.String({ format: 'date-time', description });

export const Hold = closedObject(
  {
    transactionId: id,
    userId: id,
    kioskId: id,
    points: { ...count, description: 'What the deposit earns if released (promotions and the daily cap applied)' },
    reasons: Type.Array(stringEnum(HOLD_REASONS), { description: 'Every rule the deposit tripped' }),
    occurredAt: instant('When the deposit was made, ISO 8601 UTC'),
    heldAt: instant('When the deposit was recorded and its points held, ISO 8601 UTC'),
    resolvedAt: nullable(instant('When an operator released or rejected it; null while open')),
    resolution: Type.Unsafe<HoldResolution | null>({
      type: 'string',
      enum: [...HOLD_RESOLUTIONS, null],
      nullable: true,
      description: '`released` or `rejected`; null while open',
    }),
    reason: nullable(Type.String({ description: "The operator's reason; null while open" })),
    by: nullable(Type.String({ description: "The admin's uid (or `cli:<operator>`); null while open" })),
  },
  { $id: 'Hold', description: "A deposit whose points wait for an operator's review (contract §17)." },
);
export type HoldView = Static<typeof Hold>;

/** A release's or a rejection's `reason`: 1-200 characters, not only white space. */
export const holdDecisionBody = closedObject({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
});
export type HoldDecisionBody = Static<typeof holdDecisionBody>;

/** Why an operator suspends a user (or lifts the suspension). */
export const suspensionBody = closedObject({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
});
export type SuspensionBody = Static<typeof suspensionBody>;
