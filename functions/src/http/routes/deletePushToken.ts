import { logInfo } from '../../log';
import { removePushToken } from '../../data/users';
import { userRoute } from '../accessRoutes';
import { userExample } from '../apiDescription/examples';
import { overloadedAnswer, userAnswer } from '../apiDescription/routeAnswers';

/** DELETE /user/{userId}/push-token: sign-out or notifications turned off. */
export const deletePushTokenRoute = userRoute({
  method: 'DELETE',
  path: '/user/:userId/push-token',
  handler: async ({ params }) => {
    const user = await removePushToken(params.userId);
    logInfo('push_token_removed', { userId: user.id });
    return { body: { success: true, user } };
  },
  doc: {
    operationId: 'removePushToken',
    summary: 'Stop pushes to the device',
    description: 'On sign-out or when the user turns notifications off. Removing a token that is not there is fine.',
    tag: 'Users',
    responses: {
      200: userAnswer('Removed; the user has no push token', { ...userExample, hasPushToken: false }),
      404: { description: 'No user has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
