import { logInfo } from '../../log';
import { retryDelivery } from '../../services/webhooks';
import { adminRoute } from '../accessRoutes';
import { doneAnswer, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/webhooks/{webhookId}/deliveries/{deliveryId}/retry: one more attempt, now. */
export const retryWebhookDeliveryRoute = adminRoute({
  method: 'POST',
  path: '/admin/webhooks/:webhookId/deliveries/:deliveryId/retry',
  handler: async ({ params, caller }) => {
    await retryDelivery(params.webhookId, params.deliveryId);
    logInfo('webhook_delivery_retried', { ...params, by: caller.uid });
    return { body: { success: true } };
  },
  doc: {
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again now',
    description:
      'A succeeded or failed delivery becomes `pending` and is sent once more at once (same `webhook-id`, signed ' +
      'anew); the attempt is added to its list. The answer does not wait for the receiver.',
    tag: 'Administration',
    responses: {
      200: doneAnswer('Queued'),
      404: { description: 'No such webhook, or no such delivery of it', codes: ['not-found'] },
      409: { description: 'The delivery is pending: its attempts are under way', codes: ['webhook-delivery-pending'] },
      503: overloadedAnswer,
    },
  },
});
