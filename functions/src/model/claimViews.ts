/**
 * Claim codes (contract §18): the request body of a claim and what a transaction
 * gains for it, declared once here; model/views.ts's Transaction and
 * requestBodies.ts's registry take them from this file.
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject } from './fields';
import { MAX_WRITTEN_CODE_LENGTH } from './limits';

/** The fields a transaction gains for claims, spread into model/views.ts's Transaction. */
export const transactionClaimFields = {
  claim: Type.Optional(
    closedObject(
      {
        code: Type.String({
          description: 'The code the kiosk shows the recycler (12 characters; case, spaces and hyphens do not matter)',
        }),
        expiresAt: Type.String({
          format: 'date-time',
          description: '`CLAIM_VALID_DAYS` (default 30) days after `occurredAt`, ISO 8601 UTC; claimable before it',
        }),
      },
      { description: 'An anonymous deposit only: how its points are claimed' },
    ),
  ),
  claimedAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the user claimed it, ISO 8601 UTC (claimed deposits only)' }),
  ),
};

export const claimBody = closedObject({
  code: Type.String({
    minLength: 1,
    maxLength: MAX_WRITTEN_CODE_LENGTH,
    description: 'The claim code as written: case, spaces and hyphens do not matter',
  }),
});
export type ClaimBody = Static<typeof claimBody>;
