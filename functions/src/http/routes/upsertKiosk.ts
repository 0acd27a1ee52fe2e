import { fleetSettings } from '../../config';
import { logInfo } from '../../log';
import { upsertKiosk } from '../../data/kiosks';
import { assertKioskDefinition, toKioskView } from '../../domain/kiosk';
import { adminRoute } from '../accessRoutes';
import type { AdminKioskBody } from '../../model/requestBodies';
import { kioskExample } from '../apiDescription/examples';
import { kioskAnswer, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/kiosks: create (201) or update (200) a kiosk; counters are never touched. */
export const upsertKioskRoute = adminRoute<AdminKioskBody>({
  method: 'POST',
  path: '/admin/kiosks',
  bodySchema: 'adminKioskBody',
  handler: async ({ body, caller }) => {
    const { kiosk, created } = await upsertKiosk(assertKioskDefinition(body));
    logInfo(created ? 'kiosk_created' : 'kiosk_updated', { kioskId: kiosk.id, by: caller.uid });
    return {
      status: created ? 201 : 200,
      body: { success: true, kiosk: toKioskView(kiosk, new Date(), fleetSettings().onlineMinutes) },
    };
  },
  doc: {
    operationId: 'upsertKiosk',
    summary: 'Create or update a kiosk',
    description:
      'Creates the kiosk under `id` (defaults: opening hours `24/7`, time zone `UTC`, status `available`, counts ' +
      '0), or updates it: omitted fields and the counters are kept.',
    tag: 'Administration',
    example: {
      id: 'hamburg-hbf',
      name: 'Hamburg Hbf',
      address: 'Hachmannplatz 16, 20099 Hamburg, Germany',
      location: { latitude: 53.553, longitude: 10.0067 },
      openingHours: 'Mo-Su 06:00-23:00',
      timezone: 'Europe/Berlin',
    },
    responses: {
      200: kioskAnswer('Updated', { ...kioskExample, name: 'Berlin Alexanderplatz (north exit)' }),
      201: kioskAnswer('Created', {
        id: 'hamburg-hbf',
        name: 'Hamburg Hbf',
        address: 'Hachmannplatz 16, 20099 Hamburg, Germany',
        status: 'available',
        plasticCount: 0,
        metalCount: 0,
        lastUpdated: '2026-11-23T10:00:00.000Z',
        location: { latitude: 53.553, longitude: 10.0067 },
        openingHours: 'Mo-Su 06:00-23:00',
        timezone: 'Europe/Berlin',
        openNow: true,
        lastSeenAt: null,
        online: false,
      }),
      400: {
        description:
          'An invalid id, coordinates off the globe, an unknown time zone, or opening hours the evaluator cannot read',
        codes: ['invalid-argument'],
      },
      503: overloadedAnswer,
    },
  },
});
