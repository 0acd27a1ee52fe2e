import type { VerifiedCaller } from '../../adapters/identity';
import { loadRewardsConfig } from '../../data/rewardsConfig';
import { getUser, toUserView } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import type { Route } from '../types';

/** GET /user/{userId}: the signed-in user's own points and profile (admins: anyone's). */
export const getUserRoute: Route<undefined, VerifiedCaller> = {
  method: 'GET',
  path: '/user/:userId',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  handler: async ({ params }) => {
    const [user, rewards] = await Promise.all([getUser(params.userId), loadRewardsConfig()]);
    return { body: { success: true, user: toUserView(user, rewards) } };
  },
};
