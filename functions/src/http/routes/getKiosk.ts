import { getKiosk } from '../../data/kiosks';
import { toKioskView } from '../../domain/kiosk';
import type { Route } from '../types';

/** GET /kiosk/{kioskId}: public kiosk details for the map, with openNow. */
export const getKioskRoute: Route = {
  method: 'GET',
  path: '/kiosk/:kioskId',
  handler: async ({ params }) => {
    const kiosk = await getKiosk(params.kioskId);
    return { body: { success: true, kiosk: toKioskView(kiosk, new Date()) } };
  },
};
