import { getUserView } from '../../data/users';
import { userRoute } from '../accessRoutes';
import { userAnswer } from '../apiDescription/routeAnswers';

/** GET /user/{userId}: the signed-in user's own points and profile (admins: anyone's). */
export const getUserRoute = userRoute({
  method: 'GET',
  path: '/user/:userId',
  handler: async ({ params }) => {
    return { body: { success: true, user: await getUserView(params.userId) } };
  },
  doc: {
    operationId: 'getUser',
    summary: "Get a user's points and rank",
    description: "The signed-in user's own profile (an admin may read anyone's).",
    tag: 'Users',
    responses: {
      200: userAnswer('The user'),
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
});
