import type { VerifiedCaller } from '../../adapters/identity';
import { getUserView } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import { userAnswer } from '../answers';
import type { Route } from '../types';

/** GET /user/{userId}: the signed-in user's own points and profile (admins: anyone's). */
export const getUserRoute: Route<undefined, VerifiedCaller> = {
  method: 'GET',
  path: '/user/:userId',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  handler: async ({ params }) => {
    return { body: { success: true, user: await getUserView(params.userId) } };
  },
  doc: {
    operationId: 'getUser',
    summary: "Get a user's points and rank",
    description: "The signed-in user's own profile (an admin may read anyone's).",
    tag: 'Users',
    access: 'user',
    responses: {
      200: userAnswer('The user'),
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
};
