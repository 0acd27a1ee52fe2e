import type { VerifiedCaller } from '../../adapters/identity';
import { historyPage, type LedgerEntryView } from '../../data/ledger';
import { getUser } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import { successBody } from '../components';
import { redeemedFromSchema } from '../rewardComponents';
import { PAGE_ERRORS, pageLimit, pageQuery } from '../paging';
import type { JsonSchema, Route } from '../types';

const entrySchema: JsonSchema = {
  type: 'object',
  description: 'One change of the balance',
  properties: {
    id: { type: 'string' },
    kind: {
      type: 'string',
      enum: ['earn', 'redeem', 'refund', 'adjust'],
      description: '`earn`: a deposit; `redeem`/`refund`: a reward and its cancelling; `adjust`: an operator',
    },
    points: { type: 'integer', description: 'Signed: positive adds to the spendable balance' },
    balanceAfter: { type: 'integer', minimum: 0, description: 'The spendable balance after this entry' },
    createdAt: { type: 'string', format: 'date-time' },
    transaction: {
      type: 'object',
      description: 'The deposit an `earn` entry came from',
      properties: {
        id: { type: 'string' },
        kioskId: { type: 'string' },
        plasticCount: { type: 'integer', minimum: 0 },
        metalCount: { type: 'integer', minimum: 0 },
        occurredAt: { type: 'string', format: 'date-time' },
      },
      required: ['id', 'kioskId', 'plasticCount', 'metalCount', 'occurredAt'],
      additionalProperties: false,
    },
    redemption: redeemedFromSchema,
    reason: { type: 'string', description: 'Why an operator adjusted the balance' },
  },
  required: ['id', 'kind', 'points', 'balanceAfter', 'createdAt'],
  additionalProperties: false,
};

const exampleEntry: LedgerEntryView = {
  id: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
  kind: 'earn',
  points: 70,
  balanceAfter: 1320,
  createdAt: '2026-11-23T09:30:02.118Z',
  transaction: {
    id: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
    kioskId: 'berlin-alexanderplatz',
    plasticCount: 3,
    metalCount: 2,
    occurredAt: '2026-11-23T08:12:44.000Z',
  },
};

/** GET /user/{userId}/history: where the points came from and went, newest first, a page at a time. */
export const userHistoryRoute: Route<undefined, VerifiedCaller> = {
  method: 'GET',
  path: '/user/:userId/history',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  query: pageQuery('Entries'),
  handler: async ({ params, query }) => {
    const limit = pageLimit(query.limit);
    await getUser(params.userId);
    return { body: { success: true, ...(await historyPage(params.userId, limit, query.cursor)) } };
  },
  doc: {
    operationId: 'getUserHistory',
    summary: "A user's points history",
    description:
      'Every change of the balance, newest first: an `earn` entry per deposit, `redeem` and `refund` for ' +
      'rewards, `adjust` by operators (and the opening balance of an account older than the history). Page ' +
      'with `nextCursor` (null on the last page). Paging while new entries are added never skips or repeats an ' +
      'entry that existed when the first page was read (new ones appear on a fresh first page), and a page ' +
      'takes the same time however long the history is.',
    tag: 'Users',
    access: 'user',
    responses: {
      200: {
        description: 'One page of entries',
        schema: successBody({
          entries: { type: 'array', items: entrySchema },
          nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null: no more' },
        }),
        example: { success: true, entries: [exampleEntry], nextCursor: null },
      },
      400: PAGE_ERRORS,
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
};
