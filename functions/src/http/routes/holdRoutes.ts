import { holdsPage } from '../../data/holds';
import { badRequest } from '../../errors';
import { decideHold } from '../../services/holds';
import type { HoldDecisionBody } from '../../model/trustViews';
import type { HoldView } from '../../model/trustViews';
import type { HoldResolution } from '../../model/trustVocabulary';
import { adminRoute } from '../accessRoutes';
import { PAGE_ERRORS, pageLimit, pageQuery } from '../paging';
import { overloadedAnswer } from '../apiDescription/routeAnswers';

const HOLD_STATES = ['open', 'all'] as const;

export const holdExample: HoldView = {
  transactionId: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
  userId: 'demo-alice',
  kioskId: 'berlin-alexanderplatz',
  points: 70,
  reasons: ['kiosk-throughput'],
  occurredAt: '2026-11-23T08:12:44.000Z',
  heldAt: '2026-11-23T08:12:45.000Z',
  resolvedAt: null,
  resolution: null,
  reason: null,
  by: null,
};

/** GET /admin/holds[?state=open|all][&limit=][&cursor=]: held deposits, newest first, a page at a time (§17). */
export const listHoldsRoute = adminRoute({
  method: 'GET',
  path: '/admin/holds',
  query: {
    state: {
      description: '`open` (the default): the holds waiting for review; `all`: released and rejected ones too',
      schema: ({ stringEnum }) => ({ ...stringEnum(HOLD_STATES), default: 'open' }),
    },
    ...pageQuery('Holds'),
  },
  handler: async ({ query }) => {
    const state = query.state ?? 'open';
    if (!(HOLD_STATES as readonly string[]).includes(state)) {
      throw badRequest(`state must be one of ${HOLD_STATES.join(', ')}`);
    }
    const { items, nextCursor } = await holdsPage(state === 'open', pageLimit(query.limit), query.cursor);
    return { body: { success: true, holds: items, nextCursor } };
  },
  doc: {
    operationId: 'listHolds',
    summary: 'List held deposits, newest first',
    description:
      "The deposits whose points wait for an operator's review (contract §17), newest first by `heldAt`, or with " +
      '`state=all` every hold ever made. Paged as the history: pass `nextCursor` as `cursor` for the next page ' +
      '(null on the last one).',
    tag: 'Administration',
    responses: {
      200: {
        description: 'One page of holds',
        schema: ({ Type, successBody, nullable, Hold }) =>
          successBody({ holds: Type.Array(Hold), nextCursor: nullable(Type.String()) }),
        example: { success: true, holds: [holdExample], nextCursor: null },
      },
      400: { description: '`state` is not `open` or `all`, or a bad page', codes: PAGE_ERRORS.codes },
    },
  },
});

const decisionRoute = (resolution: HoldResolution) => {
  const released = resolution === 'released';
  const verb = released ? 'release' : 'reject';
  return adminRoute<HoldDecisionBody>({
    method: 'POST',
    path: `/admin/holds/:transactionId/${verb}`,
    bodySchema: 'holdDecisionBody',
    handler: async ({ params, body, caller }) => {
      const { hold, newBalance } = await decideHold(params.transactionId, {
        resolution,
        reason: body.reason,
        by: caller.uid,
      });
      return { body: released ? { success: true, hold, newBalance } : { success: true, hold } };
    },
    doc: {
      operationId: released ? 'releaseHold' : 'rejectHold',
      summary: released ? "Release a deposit's held points" : "Reject a deposit's held points",
      description: released
        ? 'Credits the held points now, in one commit: the `earn` entry of the transaction, `currentPoints` and ' +
          '`totalPoints` (the rank follows), the transaction `awarded`; the user gets a `points-released` ' +
          'notification and a push. Exactly once under any concurrency.'
        : 'The points are never credited; the user gets a `points-rejected` notification and a push. Exactly once ' +
          'under any concurrency.',
      tag: 'Administration',
      example: { reason: released ? 'Checked with the site: a school collection day' : 'Kiosk key stolen' },
      responses: {
        200: {
          description: released ? 'Released and credited' : 'Rejected',
          schema: ({ Type, successBody, Hold }) =>
            released
              ? successBody({ hold: Hold, newBalance: Type.Integer({ minimum: 0 }) })
              : successBody({ hold: Hold }),
          example: released
            ? {
                success: true,
                hold: { ...holdExample, resolution, reason: 'Checked', by: 'demo-admin' },
                newBalance: 1320,
              }
            : { success: true, hold: { ...holdExample, resolution, reason: 'Kiosk key stolen', by: 'demo-admin' } },
        },
        400: { description: '`reason` missing, empty or over 200 characters', codes: ['invalid-argument'] },
        404: {
          description: released
            ? 'No hold for this transaction, or its user is erased (only a rejection is left)'
            : 'No hold for this transaction',
          codes: released ? ['hold-not-found', 'not-found'] : ['hold-not-found'],
        },
        409: {
          description: 'The hold was released or rejected before; the body shows it as `hold`',
          codes: ['hold-resolved'],
          fields: ({ Hold }) => ({ hold: Hold }),
        },
        503: overloadedAnswer,
      },
    },
  });
};

/** POST /admin/holds/{transactionId}/release: the held points credited, once. */
export const releaseHoldRoute = decisionRoute('released');
/** POST /admin/holds/{transactionId}/reject: the held points never credited, once. */
export const rejectHoldRoute = decisionRoute('rejected');
