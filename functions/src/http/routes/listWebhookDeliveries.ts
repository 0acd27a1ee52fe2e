import { webhookDeliveriesPage } from '../../data/webhookDeliveries';
import { badRequest } from '../../errors';
import { assertWebhookExists } from '../../services/webhooks';
import { adminRoute } from '../accessRoutes';
import { deliveryExample } from '../apiDescription/examples';
import { PAGE_ERRORS, pageLimit, pageQuery } from '../paging';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../model/webhookEventTypes';

/** GET /admin/webhooks/{webhookId}/deliveries[?status=][&limit=][&cursor=]: newest first, a page at a time. */
export const listWebhookDeliveriesRoute = adminRoute({
  method: 'GET',
  path: '/admin/webhooks/:webhookId/deliveries',
  query: {
    status: {
      description: 'Only the deliveries with this status',
      schema: ({ stringEnum }) => stringEnum(DELIVERY_STATUSES),
    },
    ...pageQuery('Deliveries'),
  },
  handler: async ({ params, query }) => {
    const status = query.status;
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
      throw badRequest(`status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    const limit = pageLimit(query.limit);
    await assertWebhookExists(params.webhookId);
    const { items, nextCursor } = await webhookDeliveriesPage(params.webhookId, status as DeliveryStatus | undefined, {
      limit,
      cursor: query.cursor,
    });
    return { body: { success: true, deliveries: items, nextCursor } };
  },
  doc: {
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook's deliveries, newest first",
    description:
      'Each event sent (or being sent) to the webhook, with every attempt, newest first, `limit` a page; pass ' +
      '`nextCursor` as `cursor` for the next page (null on the last one).',
    tag: 'Administration',
    responses: {
      200: {
        description: 'One page of deliveries',
        schema: ({ Type, successBody, nullable, WebhookDelivery }) =>
          successBody({
            deliveries: Type.Array(WebhookDelivery),
            nextCursor: nullable(Type.String({ description: 'Opaque; pass it as `cursor`. null on the last page' })),
          }),
        example: { success: true, deliveries: [deliveryExample], nextCursor: null },
      },
      400: {
        description: `\`status\` is not one of ${DELIVERY_STATUSES.join(', ')}; ${PAGE_ERRORS.description}`,
        codes: ['invalid-argument'],
      },
      404: { description: 'No webhook has this id', codes: ['not-found'] },
    },
  },
});
