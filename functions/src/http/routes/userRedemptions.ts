import { redemptionsPage } from '../../data/redemptions';
import { redemptionExample } from '../apiDescription/examples';
import { userPagedListRoute } from '../userPagedList';

/** GET /user/{userId}/redemptions: what the user redeemed, newest first, a page at a time. */
export const userRedemptionsRoute = userPagedListRoute({
  segment: 'redemptions',
  itemsKey: 'redemptions',
  itemsNoun: 'Redemptions',
  readPage: redemptionsPage,
  itemSchema: 'Redemption',
  example: redemptionExample,
  doc: {
    operationId: 'listUserRedemptions',
    summary: "A user's redemptions",
    description:
      'Every reward the user redeemed, with its voucher code and status, newest first. Paged as the history: ' +
      'pass `nextCursor` (null on the last page); paging while new redemptions are made never skips or repeats one.',
    tag: 'Rewards',
  },
});
