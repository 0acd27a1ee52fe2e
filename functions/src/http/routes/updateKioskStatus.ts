import { logInfo } from '../../log';
import { setKioskStatus } from '../../data/kiosks';
import { toKioskView } from '../../domain/kiosk';
import { requireKiosk, type KioskCaller } from '../auth';
import { kioskExample, kioskSchema, successBody } from '../components';
import type { KioskStatusBody } from '../schemas';
import type { Route } from '../types';

/** POST /kiosk/{kioskId}/status: the kiosk reports its own state, with its own key. */
export const updateKioskStatusRoute: Route<KioskStatusBody, KioskCaller> = {
  method: 'POST',
  path: '/kiosk/:kioskId/status',
  authenticate: ({ headers, params }) => requireKiosk(headers, params.kioskId),
  bodySchema: 'kioskStatusBody',
  handler: async ({ params, body }) => {
    const kiosk = await setKioskStatus(params.kioskId, body.status);
    logInfo('kiosk_status_changed', { kioskId: kiosk.id, status: kiosk.status });
    return { body: { success: true, kiosk: toKioskView(kiosk, new Date()) } };
  },
  doc: {
    operationId: 'reportKioskStatus',
    summary: "Report the kiosk's status",
    description:
      'The kiosk sets its own status with its own key; `lastUpdated` is refreshed. Only an `available` kiosk ' +
      'accepts transactions.',
    tag: 'Kiosk devices',
    access: 'kiosk',
    example: { status: 'maintenance' },
    responses: {
      200: {
        description: 'The kiosk as now stored',
        schema: successBody({ kiosk: kioskSchema }),
        example: { success: true, kiosk: { ...kioskExample, status: 'maintenance', openNow: true } },
      },
      404: { description: 'The kiosk of this key no longer exists', codes: ['not-found'] },
    },
  },
};
