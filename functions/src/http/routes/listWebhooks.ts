import { listWebhooks, toWebhookView } from '../../data/webhooks';
import { adminRoute } from '../accessRoutes';
import { answerWith } from '../apiDescription/routeAnswers';
import { webhookExample } from '../apiDescription/examples';

/** GET /admin/webhooks: every webhook, never a secret. */
export const listWebhooksRoute = adminRoute({
  method: 'GET',
  path: '/admin/webhooks',
  handler: async () => ({ body: { success: true, webhooks: (await listWebhooks()).map(toWebhookView) } }),
  doc: {
    operationId: 'listWebhooks',
    summary: 'List webhooks',
    description: 'Every registered webhook, oldest first. Secrets are never listed.',
    tag: 'Administration',
    responses: {
      200: answerWith('The webhooks', 'webhooks', ['Webhook'], [webhookExample]),
    },
  },
});
