import type { VerifiedCaller } from '../../adapters/identity';
import { loadRewardsConfig } from '../../data/rewardsConfig';
import { getUser, toUserView } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import { successBody, userExample, userSchema } from '../components';
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
  doc: {
    operationId: 'getUser',
    summary: "Get a user's points and rank",
    description: "The signed-in user's own profile (an admin may read anyone's).",
    tag: 'Users',
    access: 'user',
    responses: {
      200: {
        description: 'The user',
        schema: successBody({ user: userSchema }),
        example: { success: true, user: userExample },
      },
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
};
