import { fleetSettings } from '../../config';
import { getKiosk } from '../../data/kiosks';
import { toKioskView } from '../../domain/kiosk';
import { kioskAnswer } from '../apiDescription/routeAnswers';
import type { Route } from '../types';

/** GET /kiosk/{kioskId}: public kiosk details for the map, with openNow. */
export const getKioskRoute: Route = {
  method: 'GET',
  path: '/kiosk/:kioskId',
  handler: async ({ params }) => {
    const kiosk = await getKiosk(params.kioskId);
    return { body: { success: true, kiosk: toKioskView(kiosk, new Date(), fleetSettings().onlineMinutes) } };
  },
  doc: {
    operationId: 'getKiosk',
    summary: 'Get one kiosk',
    description:
      'A kiosk with its counters, location and opening hours; `openNow` is evaluated from the opening hours in ' +
      "the kiosk's own time zone at the time of the answer; `online` says whether the kiosk was seen (a request " +
      'with one of its API keys) within KIOSK_ONLINE_MINUTES.',
    tag: 'Kiosks',
    access: 'public',
    responses: {
      200: kioskAnswer('The kiosk'),
      404: { description: 'No kiosk has this id', codes: ['not-found'] },
    },
  },
};
