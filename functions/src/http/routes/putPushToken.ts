import { logInfo } from '../../log';
import { registerPushToken } from '../../data/users';
import { userRoute } from '../accessRoutes';
import { userExample } from '../apiDescription/examples';
import { overloadedAnswer, userAnswer } from '../apiDescription/routeAnswers';
import type { PushTokenBody } from '../../model/requestBodies';

/** PUT /user/{userId}/push-token: the app registers its FCM device token. */
export const putPushTokenRoute = userRoute<PushTokenBody>({
  method: 'PUT',
  path: '/user/:userId/push-token',
  bodySchema: 'pushTokenBody',
  handler: async ({ params, body }) => {
    const user = await registerPushToken(params.userId, body.token);
    logInfo('push_token_registered', { userId: user.id });
    return { body: { success: true, user } };
  },
  doc: {
    operationId: 'registerPushToken',
    summary: 'Register the device for pushes',
    description:
      'The app registers its FCM registration token. A token belongs to one account at a time: registering it ' +
      'removes it from any other user (a shared phone that changed accounts).',
    tag: 'Users',
    example: { token: 'fcm-registration-token-of-the-device' },
    responses: {
      200: userAnswer('Registered; the user now has a push token', { ...userExample, hasPushToken: true }),
      404: { description: 'No user has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
