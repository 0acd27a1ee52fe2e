import { logInfo } from '../../log';
import type { VerifiedCaller } from '../../adapters/identity';
import { registerPushToken, removePushToken } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
import { userAnswer } from '../answers';
import { userExample } from '../components';
import type { PushTokenBody } from '../schemas';
import type { Route } from '../types';

/** PUT /user/{userId}/push-token: the app registers its FCM device token. */
export const putPushTokenRoute: Route<PushTokenBody, VerifiedCaller> = {
  method: 'PUT',
  path: '/user/:userId/push-token',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
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
    access: 'user',
    example: { token: 'fcm-registration-token-of-the-device' },
    responses: {
      200: userAnswer('Registered; the user now has a push token', { ...userExample, hasPushToken: true }),
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
};

/** DELETE /user/{userId}/push-token: sign-out or notifications turned off. */
export const deletePushTokenRoute: Route<undefined, VerifiedCaller> = {
  method: 'DELETE',
  path: '/user/:userId/push-token',
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
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
    access: 'user',
    responses: {
      200: userAnswer('Removed; the user has no push token', { ...userExample, hasPushToken: false }),
      404: { description: 'No user has this id', codes: ['not-found'] },
    },
  },
};
