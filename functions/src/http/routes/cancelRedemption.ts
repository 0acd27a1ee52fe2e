import { cancelRedemption } from '../../services/redemptions';
import { adminRoute } from '../accessRoutes';
import type { CancelRedemptionBody } from '../../model/requestBodies';
import { redemptionExample } from '../apiDescription/examples';
import { overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/redemptions/{redemptionId}/cancel: the points and the unit of stock go back, once. */
export const cancelRedemptionRoute = adminRoute<CancelRedemptionBody>({
  method: 'POST',
  path: '/admin/redemptions/:redemptionId/cancel',
  bodySchema: 'cancelRedemptionBody',
  handler: async ({ params, body, caller }) => {
    const { redemption, newBalance } = await cancelRedemption(params.redemptionId, body.reason, caller.uid);
    return { body: { success: true, redemption, newBalance } };
  },
  doc: {
    operationId: 'cancelRedemption',
    summary: 'Cancel a redemption',
    description:
      "Gives the cost back to the user's spendable balance (a `refund` entry in their history; `totalPoints` is " +
      'not touched) and one unit back to the stock of a reward with a counted stock, and marks the redemption ' +
      'cancelled with the reason and the admin, all in one transaction. Once: cancelling again is 409.',
    tag: 'Rewards',
    example: { reason: 'Partner café closed for renovation' },
    responses: {
      200: {
        description: 'Cancelled and refunded',
        schema: ({ redemptionAnswer }) => redemptionAnswer("The user's spendable points after the refund"),
        example: {
          success: true,
          redemption: {
            ...redemptionExample,
            status: 'cancelled',
            cancelledAt: '2026-11-23T11:20:00.000Z',
            cancelReason: 'Partner café closed for renovation',
          },
          newBalance: 1320,
        },
      },
      400: { description: '`reason` missing, empty or over 200 characters', codes: ['invalid-argument'] },
      404: { description: 'No redemption has this id', codes: ['not-found'] },
      409: {
        description:
          'It was cancelled before, or it is a voucher a partner has used (never refunded); nothing changed. An ' +
          'expired voucher may be cancelled',
        codes: ['already-cancelled', 'voucher-used'],
      },
      503: overloadedAnswer,
    },
  },
});
