import { pushTransport } from '../../adapters/push';
import { allowedTopics } from '../../config';
import { assertDocumentId } from '../../domain/ids';
import { badRequest } from '../../errors';
import { notifyDevice, notifyTopic, notifyUser } from '../../services/notifications';
import { adminRoute } from '../accessRoutes';
import { pushResponseSchema, successBody } from '../components';
import type { NotifyTopicBody, NotifyUserBody } from '../schemas';
import type { ErrorResponse } from '../types';

const messageRules =
  'a data key the push provider reserves, title, body and data over 4 KiB together (`invalid-argument`), or a ' +
  'message the push provider rejected (`push-message-rejected`)';
const providerUnavailable: ErrorResponse = {
  description: 'The push provider could not be reached; nothing was stored. Try again later',
  codes: ['push-provider-unavailable'],
};

/** POST /notify/topic: an operator campaign to every subscriber of a configured topic. */
export const notifyTopicRoute = adminRoute<NotifyTopicBody>({
  method: 'POST',
  path: '/notify/topic',
  bodySchema: 'notifyTopicBody',
  handler: async ({ body }) => {
    const topics = allowedTopics();
    if (!topics.includes(body.topic)) throw badRequest(`topic must be one of ${topics.join(', ')}`);
    const messageId = await notifyTopic(pushTransport(), body.topic, body);
    return {
      body: { success: true, message: `Notification sent to topic ${body.topic}`, pushResponse: { messageId } },
    };
  },
  doc: {
    operationId: 'notifyTopic',
    summary: 'Push to every subscriber of a topic',
    description:
      'An operator campaign. Only the configured topics are accepted (by default `all_users`, `offers_updates`).',
    tag: 'Notifications',
    example: {
      topic: 'offers_updates',
      title: 'Double points',
      body: 'All weekend at every kiosk',
      data: { type: 'offer' },
    },
    responses: {
      200: {
        description: 'The push provider accepted the message',
        schema: successBody({ message: { type: 'string' }, pushResponse: pushResponseSchema }),
        example: {
          success: true,
          message: 'Notification sent to topic offers_updates',
          pushResponse: { messageId: 'projects/kiosk-rewards/messages/0:1700000000000000%abc' },
        },
      },
      400: {
        description: `A topic that is not configured, ${messageRules}`,
        codes: ['invalid-argument', 'push-message-rejected'],
      },
      502: providerUnavailable,
    },
  },
});

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
        schema: successBody(
          { message: { type: 'string' }, pushResponse: pushResponseSchema },
          {
            notificationId: {
              type: 'string',
              description: 'The in-app notification kept for the user (by userId only)',
            },
          },
        ),
        example: {
          success: true,
          message: 'Notification sent to user demo-alice',
          pushResponse: { messageId: 'projects/kiosk-rewards/messages/0:1700000000000001%abc' },
          notificationId: 'v8PqL2nX0sYk4TzA1bCd',
        },
      },
      400: {
        description: `Neither or both of userId and pushToken, an invalid userId, ${messageRules}`,
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
      502: providerUnavailable,
    },
  },
});
