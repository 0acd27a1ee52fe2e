import { pushTransport } from '../../adapters/push';
import { assertDocumentId } from '../../domain/ids';
import { badRequest } from '../../errors';
import { notifyDevice, notifyUser } from '../../services/notifications';
import { adminRoute } from '../accessRoutes';
import type { NotifyUserBody } from '../../model/requestBodies';
import { pushMessageRules, pushProviderUnavailable } from '../apiDescription/routeAnswers';

/** POST /notify/user: a push to one user (also kept in-app) or to one device token. */
export const notifyUserRoute = adminRoute<NotifyUserBody>({
  method: 'POST',
  path: '/notify/user',
  bodySchema: 'notifyUserBody',
  handler: async ({ body }) => {
    const { userId, pushToken } = body;
    if ((userId == null) === (pushToken == null)) {
      throw badRequest('userId or pushToken: exactly one recipient is required');
    }
    if (userId != null) {
      assertDocumentId(userId, 'userId');
      const { messageId, notificationId } = await notifyUser(pushTransport(), userId, body);
      return {
        body: {
          success: true,
          message: `Notification sent to user ${userId}`,
          pushResponse: { messageId },
          notificationId,
        },
      };
    }
    const messageId = await notifyDevice(pushTransport(), pushToken!, body);
    return { body: { success: true, message: 'Notification sent to device', pushResponse: { messageId } } };
  },
  doc: {
    operationId: 'notifyUser',
    summary: 'Push to one user or one device',
    description:
      'Exactly one recipient: `userId` pushes to the device the user registered and, once the push provider ' +
      'accepted it, keeps the message in their in-app notifications (`type: "message"`); `pushToken` pushes to ' +
      'that device only.',
    tag: 'Notifications',
    example: {
      userId: 'demo-alice',
      title: 'Thank you',
      body: 'You recycled 60 items this year',
      data: { screen: 'history' },
    },
    responses: {
      200: {
        description: 'The push provider accepted the message',
        schema: ({ Type, successBody, pushAnswerFields }) =>
          successBody({
            ...pushAnswerFields,
            notificationId: Type.Optional(
              Type.String({ description: 'The in-app notification kept for the user (by userId only)' }),
            ),
          }),
        example: {
          success: true,
          message: 'Notification sent to user demo-alice',
          pushResponse: { messageId: 'projects/kiosk-rewards/messages/0:1700000000000001%abc' },
          notificationId: 'v8PqL2nX0sYk4TzA1bCd',
        },
      },
      400: {
        description: `Neither or both of userId and pushToken, an invalid userId, ${pushMessageRules}`,
        codes: ['invalid-argument', 'push-message-rejected'],
      },
      404: { description: 'No user has this userId', codes: ['not-found'] },
      409: { description: 'The user has no registered push token', codes: ['no-push-token'] },
      410: {
        description:
          'The push provider does not accept the device token (unregistered or malformed); it was removed from ' +
          'whoever had it registered',
        codes: ['push-token-unregistered'],
      },
      502: pushProviderUnavailable,
    },
  },
});
