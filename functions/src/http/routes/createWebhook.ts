import { logInfo } from '../../log';
import { registerWebhook } from '../../services/webhooks';
import { adminRoute } from '../accessRoutes';
import { newWebhookExample } from '../apiDescription/examples';
import type { WebhookBody } from '../../model/requestBodies';
import { answerWith, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/webhooks: registers a webhook; its secret is shown in this answer only. */
export const createWebhookRoute = adminRoute<WebhookBody>({
  method: 'POST',
  path: '/admin/webhooks',
  bodySchema: 'webhookBody',
  handler: async ({ body, caller }) => {
    const webhook = await registerWebhook(body);
    logInfo('webhook_registered', { webhookId: webhook.id, events: webhook.events, by: caller.uid });
    return { status: 201, body: { success: true, webhook } };
  },
  doc: {
    operationId: 'createWebhook',
    summary: 'Register a webhook',
    description:
      'Events of the types named are POSTed to `url` as they happen, signed per Standard Webhooks 1.0 with the ' +
      '`secret` of this answer (shown here only: store it now). The URL is `https` and never a private, loopback, ' +
      'link-local or metadata address, on port 443 or 8443, checked now and again after name resolution before ' +
      "every delivery. With `partnerId` it is that partner's webhook: it takes only `redemption.used` and " +
      "`redemption.cancelled` of the partner's rewards, without the user's id. No event carries a voucher code.",
    tag: 'Administration',
    example: {
      url: 'https://crm.example.com/hooks/kiosk-rewards',
      events: ['transaction.awarded'],
      description: 'CRM',
    },
    responses: {
      201: answerWith('Registered; the secret is in this answer only', 'webhook', 'NewWebhook', newWebhookExample),
      400: {
        description: "The URL is not one events may be sent to, or a partner's webhook names another event",
        codes: ['webhook-url-refused', 'invalid-argument'],
      },
      404: { description: 'No partner has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
