import { setSuspension } from '../../services/suspension';
import type { SuspensionBody } from '../../model/trustViews';
import { adminRoute } from '../accessRoutes';
import { userExample } from '../apiDescription/examples';

/** POST /admin/users/{userId}/suspend: every deposit of the user held, redemptions refused (§17). */
export const suspendUserRoute = adminRoute<SuspensionBody>({
  method: 'POST',
  path: '/admin/users/:userId/suspend',
  bodySchema: 'suspensionBody',
  handler: async ({ params, body, caller }) => ({
    body: { success: true, user: await setSuspension(params.userId, { reason: body.reason, by: caller.uid }) },
  }),
  doc: {
    operationId: 'suspendUser',
    summary: 'Suspend a user',
    description:
      'While suspended, every deposit for the user is recorded with its points held (`user-suspended`), and ' +
      'redemptions are 403 `account-suspended`. Suspending a suspended user keeps them suspended (the reason is ' +
      'replaced).',
    tag: 'Administration',
    example: { reason: 'Deposits at three kiosks 600 km apart within an hour' },
    responses: {
      200: {
        description: 'Suspended',
        schema: ({ successBody, User }) => successBody({ user: User }),
        example: { success: true, user: { ...userExample, suspended: true } },
      },
      400: { description: '`reason` missing, empty or over 200 characters', codes: ['invalid-argument'] },
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
});

/** POST /admin/users/{userId}/unsuspend: the suspension lifted. */
export const unsuspendUserRoute = adminRoute({
  method: 'POST',
  path: '/admin/users/:userId/unsuspend',
  handler: async ({ params }) => ({ body: { success: true, user: await setSuspension(params.userId, null) } }),
  doc: {
    operationId: 'unsuspendUser',
    summary: 'Lift a suspension',
    description:
      "The user's next deposits are judged by the limits alone again, and they may redeem. Holds made while " +
      'suspended stay open for review. Lifting no suspension changes nothing.',
    tag: 'Administration',
    responses: {
      200: {
        description: 'Not suspended',
        schema: ({ successBody, User }) => successBody({ user: User }),
        example: { success: true, user: userExample },
      },
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
});
