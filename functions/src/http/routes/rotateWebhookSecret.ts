import { logInfo } from '../../log';
import { rotateSecret } from '../../services/webhooks';
import { adminRoute } from '../accessRoutes';
import { newWebhookExample } from '../apiDescription/examples';
import { answerWith, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/webhooks/{webhookId}/rotate-secret: a new secret, shown in this answer only. */
export const rotateWebhookSecretRoute = adminRoute({
  method: 'POST',
  path: '/admin/webhooks/:webhookId/rotate-secret',
  handler: async ({ params, caller }) => {
    const webhook = await rotateSecret(params.webhookId);
    logInfo('webhook_secret_rotated', { webhookId: webhook.id, by: caller.uid });
    return { body: { success: true, webhook } };
  },
  doc: {
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook's secret",
    description:
      'A new secret, shown in this answer only. For 24 h every delivery carries two signatures in ' +
      '`webhook-signature` (space-separated), one per secret, so a receiver may switch at any time in between.',
    tag: 'Administration',
    responses: {
      200: answerWith('The webhook with its new secret', 'webhook', 'NewWebhook', newWebhookExample),
      404: { description: 'No webhook has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
