import { logInfo } from '../../log';
import { removeWebhook } from '../../services/webhooks';
import { adminRoute } from '../accessRoutes';
import { doneAnswer, overloadedAnswer } from '../apiDescription/routeAnswers';

/** DELETE /admin/webhooks/{webhookId}: no delivery to it from now on. */
export const deleteWebhookRoute = adminRoute({
  method: 'DELETE',
  path: '/admin/webhooks/:webhookId',
  handler: async ({ params, caller }) => {
    await removeWebhook(params.webhookId);
    logInfo('webhook_deleted', { webhookId: params.webhookId, by: caller.uid });
    return { body: { success: true } };
  },
  doc: {
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'No event is delivered to it from now on; its pending deliveries end as `failed` without a request.',
    tag: 'Administration',
    responses: {
      200: doneAnswer('Deleted'),
      404: { description: 'No webhook has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
