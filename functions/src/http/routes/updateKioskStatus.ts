import { logInfo } from '../../log';
import { setKioskStatus } from '../../data/kiosks';
import { toKioskView } from '../../domain/kiosk';
import { requireKiosk, type KioskCaller } from '../auth';
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
};
