import { resolveAlert } from '../../services/alertResolution';
import { adminRoute } from '../accessRoutes';
import { alertExample } from '../apiDescription/examples';

/** POST /admin/alerts/{alertId}/resolve: an operator resolves a `suspicious` alert (§17). */
export const resolveAlertRoute = adminRoute({
  method: 'POST',
  path: '/admin/alerts/:alertId/resolve',
  handler: async ({ params }) => ({ body: { success: true, alert: await resolveAlert(params.alertId) } }),
  doc: {
    operationId: 'resolveAlert',
    summary: 'Resolve a suspicious alert',
    description:
      "A `suspicious` alert (a kiosk past its throughput limit) stays open until an operator resolves it; the kiosk's " +
      'next deposit past the limit opens a new one. The other kinds resolve by themselves (409). Resolving a ' +
      'resolved alert answers it as it is.',
    tag: 'Administration',
    responses: {
      200: {
        description: 'Resolved',
        schema: ({ successBody, Alert }) => successBody({ alert: Alert }),
        example: {
          success: true,
          alert: {
            ...alertExample,
            kind: 'suspicious',
            detail: 'More than 400 items in 10 minutes: points held for review',
            resolvedAt: '2026-11-23T10:02:00.000Z',
          },
        },
      },
      404: { description: 'No alert has this id', codes: ['not-found'] },
      409: { description: 'The alert is of a kind that resolves by itself', codes: ['alert-resolves-itself'] },
    },
  },
});
