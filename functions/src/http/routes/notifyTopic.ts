import { pushTransport } from '../../adapters/push';
import { allowedTopics } from '../../config';
import { badRequest } from '../../errors';
import { notifyTopic } from '../../services/notifications';
import { adminRoute } from '../accessRoutes';
import type { NotifyTopicBody } from '../../model/requestBodies';
import { pushMessageRules, pushProviderUnavailable } from '../apiDescription/routeAnswers';

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
        schema: ({ successBody, pushAnswerFields }) => successBody(pushAnswerFields),
        example: {
          success: true,
          message: 'Notification sent to topic offers_updates',
          pushResponse: { messageId: 'projects/kiosk-rewards/messages/0:1700000000000000%abc' },
        },
      },
      400: {
        description: `A topic that is not configured, ${pushMessageRules}`,
        codes: ['invalid-argument', 'push-message-rejected'],
      },
      502: pushProviderUnavailable,
    },
  },
});
