import { logInfo } from '../../log';
import type { VerifiedCaller } from '../../adapters/identity';
import { registerPushToken, removePushToken } from '../../data/users';
import { requireUserOrAdmin } from '../auth';
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
};
