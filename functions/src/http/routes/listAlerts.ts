import { listAlerts, toAlertView } from '../../data/alerts';
import { ALERT_STATES, DEFAULT_ALERT_PAGE, MAX_ALERT_PAGE, alertPageRequest } from '../../domain/alerts';
import { encodeCursor } from '../../domain/cursor';
import { adminRoute } from '../accessRoutes';
import { alertExample } from '../apiDescription/examples';

/** GET /admin/alerts[?state=open|all][&limit=][&cursor=]: alerts, newest first, a page at a time. */
export const listAlertsRoute = adminRoute({
  method: 'GET',
  path: '/admin/alerts',
  query: {
    state: {
      description: '`open` (the default): the alerts open now; `all`: resolved ones too',
      schema: ({ stringEnum }) => ({ ...stringEnum(ALERT_STATES), default: 'open' }),
    },
    limit: {
      description: `Alerts per page, 1-${MAX_ALERT_PAGE}`,
      schema: ({ Type }) => Type.Integer({ minimum: 1, maximum: MAX_ALERT_PAGE, default: DEFAULT_ALERT_PAGE }),
    },
    cursor: {
      description: "The previous page's `nextCursor`, for the page after it",
      schema: ({ Type }) => Type.String({ minLength: 1 }),
    },
  },
  handler: async ({ query }) => {
    const { state, limit, after } = alertPageRequest(query);
    const { alerts, next } = await listAlerts(state, limit, after);
    return { body: { success: true, alerts: alerts.map(toAlertView), nextCursor: next && encodeCursor(next) } };
  },
  doc: {
    operationId: 'listAlerts',
    summary: 'List alerts, newest first',
    description:
      'The alerts open now, or with `state=all` every alert, newest first, `limit` a page. Pass `nextCursor` as ' +
      '`cursor` for the next page; it is null on the last one. Paging never skips or repeats an alert that ' +
      'existed when the first page was read, while alerts are being opened (with `state=open`, an alert resolved ' +
      'meanwhile leaves the later pages). Opening an alert also pushes it to the topic `operators`.',
    tag: 'Administration',
    responses: {
      200: {
        description: 'One page of alerts',
        schema: ({ Type, successBody, nullable, Alert }) =>
          successBody({
            alerts: Type.Array(Alert),
            nextCursor: nullable(
              Type.String({ description: 'Opaque; pass it as `cursor` for the next page. null on the last page' }),
            ),
          }),
        example: { success: true, alerts: [alertExample], nextCursor: null },
      },
      400: { description: '`state`, `limit` or `cursor` is not valid', codes: ['invalid-argument'] },
    },
  },
});
