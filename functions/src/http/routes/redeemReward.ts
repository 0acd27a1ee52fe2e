import { parseIdempotencyKey } from '../../domain/idempotency';
import { badRequest } from '../../errors';
import { redeemReward } from '../../services/redemptions';
import { userRoute } from '../accessRoutes';
import type { RedeemBody } from '../../model/requestBodies';
import { redemptionExample } from '../apiDescription/examples';
import { overloadedAnswer } from '../apiDescription/routeAnswers';
import type { SuccessResponse } from '../apiDescription/operation';

const redemptionAnswer: Omit<SuccessResponse, 'description'> = {
  schema: ({ redemptionAnswer }) => redemptionAnswer("The user's spendable points right after it"),
  example: { success: true, redemption: redemptionExample, newBalance: 820 },
};

/** POST /user/{userId}/redemptions: spend points on a reward, once per Idempotency-Key. */
export const redeemRewardRoute = userRoute<RedeemBody>({
  method: 'POST',
  path: '/user/:userId/redemptions',
  bodySchema: 'redeemBody',
  handler: async ({ headers, params, body: { rewardId } }) => {
    const key = parseIdempotencyKey(headers['idempotency-key']);
    if (key === undefined) throw badRequest('Idempotency-Key is required: a redemption must be safe to retry');
    const { redemption, newBalance, replayed } = await redeemReward(params.userId, rewardId, key);
    const body = { success: true, redemption, newBalance };
    return replayed ? { headers: { 'Idempotent-Replayed': 'true' }, body } : { status: 201, body };
  },
  doc: {
    operationId: 'redeemReward',
    summary: 'Redeem a reward',
    description:
      "Spends the reward's cost from the spendable balance (`currentPoints`; `totalPoints` and the rank stay as " +
      'they are) and takes one unit of its stock, in one atomic commit with the history entry. A voucher comes ' +
      'with its code; a donation has none. A notification (and a push, with a device token) follows.\n\n' +
      'The `Idempotency-Key` is required: retry with the same key and the same body, at any later time, and the ' +
      'answer is the original one (200, `Idempotent-Replayed: true`); nothing is spent twice, also when the ' +
      'requests run at once. Keys belong to the user.',
    tag: 'Rewards',
    headers: ['Idempotency-Key'],
    idempotencyKeyRequired: true,
    example: { rewardId: 'coffee-voucher' },
    responses: {
      201: { description: 'Redeemed', ...redemptionAnswer },
      200: {
        description: 'The stored answer to an earlier request with this Idempotency-Key',
        headers: ['Idempotent-Replayed'],
        ...redemptionAnswer,
      },
      400: {
        description:
          'No Idempotency-Key, or one that is not 1-255 visible ASCII characters or sent twice; an invalid `rewardId`',
        codes: ['invalid-argument'],
      },
      // Trust (contract §17).
      403: { description: 'The user is suspended; nothing was spent', codes: ['account-suspended'] },
      404: { description: 'Unknown user or reward (the message says which)', codes: ['not-found'] },
      409: {
        description:
          'Nothing was spent: the reward is no longer offered, none is left, or the balance is below its cost',
        codes: ['reward-inactive', 'out-of-stock', 'insufficient-points'],
      },
      422: {
        description: 'This Idempotency-Key was already used by this user with a different body',
        codes: ['idempotency-key-reused'],
      },
      503: overloadedAnswer,
    },
  },
});
