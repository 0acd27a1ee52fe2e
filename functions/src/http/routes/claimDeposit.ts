import { parseIdempotencyKey } from '../../domain/idempotency';
import { claimDeposit } from '../../services/claims';
import { userRoute } from '../accessRoutes';
import type { ClaimBody } from '../../model/claimViews';
import { unclaimedTransactionExample } from '../apiDescription/examples';
import { overloadedAnswer } from '../apiDescription/routeAnswers';
import type { SchemaOf } from '../apiDescription/operation';
import { GUESS_LIMIT, GUESS_WINDOW_MS } from '../../services/vouchers';

const answerSchema: SchemaOf = ({ successBody, Transaction, count }) =>
  successBody({ transaction: Transaction, newBalance: count });

const example = {
  success: true,
  transaction: {
    ...unclaimedTransactionExample,
    userId: 'demo-alice',
    newBalance: 1320,
    status: 'awarded',
    claimedAt: '2026-11-24T17:40:02.000Z',
  },
  newBalance: 1320,
};

/** POST /user/{userId}/claims: the points of an anonymous deposit (§18), claimed with its code. */
export const claimDepositRoute = userRoute<ClaimBody>({
  method: 'POST',
  path: '/user/:userId/claims',
  bodySchema: 'claimBody',
  handler: async ({ params, headers, body }) => {
    const idempotencyKey = parseIdempotencyKey(headers['idempotency-key']);
    const { replayed, transaction, newBalance } = await claimDeposit(params.userId, body.code, idempotencyKey);
    const responseHeaders: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
    return { headers: responseHeaders, body: { success: true, transaction, newBalance } };
  },
  doc: {
    operationId: 'claimDeposit',
    summary: 'Claim an anonymous deposit with its code',
    description:
      'A deposit made without a user (`userId: null` at the kiosk) is recorded with a claim code the kiosk shows. ' +
      "Claiming it makes it this user's and awards it now as if they had deposited it then: the daily cap of " +
      'its `occurredAt` day, the history entry, `recycledCount`, the notification and push. The code is matched ' +
      'ignoring case, spaces and hyphens. Exactly once: a second claim, by anyone, is 409 `claim-used`.\n\n' +
      `More than ${GUESS_LIMIT} unknown codes for a user within ${GUESS_WINDOW_MS / 60_000} minutes and every ` +
      'claim for them is 429 until the window has passed.\n\nSend an `Idempotency-Key` to retry safely: the ' +
      'same key with the same code is answered with the claimed transaction (`Idempotent-Replayed: true`); with ' +
      'another code it is 422.',
    tag: 'Users',
    headers: ['Idempotency-Key'],
    example: { code: '7K3Q-M9XW-D2HT' },
    responses: {
      200: {
        description: 'Claimed and awarded, or the stored answer to an earlier claim with this Idempotency-Key',
        schema: answerSchema,
        headers: ['Idempotent-Replayed'],
        example,
      },
      400: {
        description: '`code` not 1-64 characters, or an Idempotency-Key that is not 1-255 visible ASCII characters',
        codes: ['invalid-argument'],
      },
      403: { description: 'The user is suspended (§17); nothing was awarded', codes: ['account-suspended'] },
      404: { description: 'No user has this id, or no deposit has this code', codes: ['not-found', 'claim-not-found'] },
      409: {
        description: 'Nothing was awarded: the deposit was claimed before (by anyone), or its code has expired',
        codes: ['claim-used', 'claim-expired'],
      },
      422: {
        description: 'This Idempotency-Key was already used by this user with a different code',
        codes: ['idempotency-key-reused'],
      },
      429: {
        description: 'Too many unknown codes for this user lately; try again after `Retry-After` seconds',
        codes: ['rate-limited'],
        headers: ['Retry-After'],
      },
      503: overloadedAnswer,
    },
  },
});
