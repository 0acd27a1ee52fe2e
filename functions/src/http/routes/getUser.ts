import type { VerifiedCaller } from '../../adapters/identity';
import { getUserView } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import type { Route } from '../types';

/** GET /user/{userId}: the signed-in user's own points and profile (admins: anyone's). */
export const getUserRoute: Route<undefined, VerifiedCaller> = {
  method: 'GET',
  path: '/user/:userId',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  handler: async ({ params }) => {
    return { body: { success: true, user: await getUserView(params.userId) } };
  },
};
