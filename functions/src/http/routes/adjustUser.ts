import { parseIdempotencyKey } from '../../domain/idempotency';
import { adjustBalance, type AdjustmentView } from '../../services/adjustBalance';
import { adminRoute } from '../accessRoutes';
import type { AdjustmentBody } from '../../model/requestBodies';
import { userExample } from '../apiDescription/examples';
import { overloadedAnswer } from '../apiDescription/routeAnswers';
import type { SchemaOf } from '../apiDescription/operation';

const answerSchema: SchemaOf = ({ successBody, Adjustment, User }) =>
  successBody({ adjustment: Adjustment, user: User });

const exampleAdjustment: AdjustmentView = {
  id: '0c6e2f4b9d1a3c5e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6',
  points: -200,
  reason: 'Deposit at munich-marienplatz counted twice (ticket 4711)',
  balanceAfter: 1050,
};
const example = {
  success: true,
  adjustment: exampleAdjustment,
  user: { ...userExample, currentPoints: 1050, totalPoints: 1050, rank: 'Silver' },
};

/** POST /admin/users/{userId}/adjustments: an operator corrects a user's points, with a reason. */
export const adjustUserRoute = adminRoute<AdjustmentBody>({
  method: 'POST',
  path: '/admin/users/:userId/adjustments',
  bodySchema: 'adjustmentBody',
  handler: async ({ params, headers, body, caller }) => {
    const idempotencyKey = parseIdempotencyKey(headers['idempotency-key']);
    const { replayed, ...answer } = await adjustBalance(params.userId, {
      points: body.points,
      reason: body.reason,
      by: caller.uid,
      idempotencyKey,
    });
    const responseHeaders: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
    return { status: replayed ? 200 : 201, headers: responseHeaders, body: { success: true, ...answer } };
  },
  doc: {
    operationId: 'adjustUserPoints',
    summary: "Adjust a user's points",
    description:
      "Adds `points` (negative: takes them) to both of the user's balances, `currentPoints` and `totalPoints`, " +
      'so the rank follows, with a `reason` the user sees in their history; the admin is recorded. One atomic ' +
      'commit: the balances, the rank and an `adjust` ledger entry (the adjustment is that entry: the same id). ' +
      'An adjustment that would take either balance below 0 is refused (409) and changes nothing.\n\nSend an ' +
      '`Idempotency-Key` to retry safely: the same key for the same user is answered with the stored adjustment ' +
      '(200, `Idempotent-Replayed: true`; `user` as it is now) and applies nothing again; with another body it ' +
      'is 422.',
    tag: 'Administration',
    headers: ['Idempotency-Key'],
    example: { points: -200, reason: 'Deposit at munich-marienplatz counted twice (ticket 4711)' },
    responses: {
      201: { description: 'Applied', schema: answerSchema, example },
      200: {
        description: 'The stored answer to an earlier request with this Idempotency-Key; nothing was applied now',
        schema: answerSchema,
        headers: ['Idempotent-Replayed'],
        example,
      },
      400: {
        description:
          '`points` not an integer within ±100,000 or 0, `reason` not 1-200 characters (or only white space), ' +
          'or an Idempotency-Key that is not 1-255 visible ASCII characters or sent twice',
        codes: ['invalid-argument'],
      },
      404: { description: 'No user has this id', codes: ['not-found'] },
      409: {
        description: '`currentPoints` or `totalPoints` would go below 0; nothing was changed',
        codes: ['insufficient-points'],
      },
      422: {
        description: 'This Idempotency-Key was already used for this user with a different body',
        codes: ['idempotency-key-reused'],
      },
      503: overloadedAnswer,
    },
  },
});
