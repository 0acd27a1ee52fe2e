import type { VerifiedCaller } from '../../adapters/identity';
import { redemptionsPage } from '../../data/redemptions';
import { getUser } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import { successBody } from '../components';
import { PAGE_ERRORS, pageLimit, pageQuery } from '../paging';
import { redemptionExample, redemptionSchema } from '../rewardComponents';
import type { Route } from '../types';

/** GET /user/{userId}/redemptions: what the user redeemed, newest first, a page at a time. */
export const userRedemptionsRoute: Route<undefined, VerifiedCaller> = {
  method: 'GET',
  path: '/user/:userId/redemptions',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  query: pageQuery('Redemptions'),
  handler: async ({ params, query }) => {
    const limit = pageLimit(query.limit);
    await getUser(params.userId);
    return { body: { success: true, ...(await redemptionsPage(params.userId, limit, query.cursor)) } };
  },
  doc: {
    operationId: 'listUserRedemptions',
    summary: "A user's redemptions",
    description:
      'Every reward the user redeemed, with its voucher code and status, newest first. Paged as the history: ' +
      'pass `nextCursor` (null on the last page); paging while new redemptions are made never skips or repeats one.',
    tag: 'Rewards',
    access: 'user',
    responses: {
      200: {
        description: 'One page of redemptions',
        schema: successBody({
          redemptions: { type: 'array', items: redemptionSchema },
          nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null: no more' },
        }),
        example: { success: true, redemptions: [redemptionExample], nextCursor: null },
      },
      400: PAGE_ERRORS,
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
};
