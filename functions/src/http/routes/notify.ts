import type { VerifiedCaller } from '../../adapters/identity';
import { pushTransport } from '../../adapters/push';
import { allowedTopics } from '../../config';
import { assertDocumentId } from '../../domain/ids';
import { badRequest } from '../../errors';
import { notifyDevice, notifyTopic, notifyUser } from '../../services/notifications';
import { requireAdmin } from '../auth';
import type { NotifyTopicBody, NotifyUserBody } from '../schemas';
import type { Route } from '../types';

/** POST /notify/topic: an operator campaign to every subscriber of a configured topic. */
export const notifyTopicRoute: Route<NotifyTopicBody, VerifiedCaller> = {
  method: 'POST',
  path: '/notify/topic',
  authenticate: ({ headers }) => requireAdmin(headers),
  bodySchema: 'notifyTopicBody',
  handler: async ({ body }) => {
    const topics = allowedTopics();
    if (!topics.includes(body.topic)) throw badRequest(`topic must be one of ${topics.join(', ')}`);
    const messageId = await notifyTopic(pushTransport(), body.topic, body);
    return {
      body: { success: true, message: `Notification sent to topic ${body.topic}`, pushResponse: { messageId } },
    };
  },
};

/** POST /notify/user: a push to one user (also kept in-app) or to one device token. */
export const notifyUserRoute: Route<NotifyUserBody, VerifiedCaller> = {
  method: 'POST',
  path: '/notify/user',
  authenticate: ({ headers }) => requireAdmin(headers),
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
};
