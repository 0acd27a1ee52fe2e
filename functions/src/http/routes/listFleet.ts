import { fleetSettings } from '../../config';
import { fleetOverview } from '../../services/fleet';
import { adminRoute } from '../accessRoutes';
import { answerWith } from '../apiDescription/routeAnswers';
import { adminKioskExample } from '../apiDescription/examples';

/** GET /admin/kiosks: the fleet as operators watch it. */
export const listFleetRoute = adminRoute({
  method: 'GET',
  path: '/admin/kiosks',
  handler: async () => {
    const kiosks = await fleetOverview(new Date(), fleetSettings().onlineMinutes);
    return { body: { success: true, kiosks } };
  },
  doc: {
    operationId: 'listFleet',
    summary: 'List the kiosks with their telemetry and open alerts',
    description:
      'Every kiosk, by id: every field of the public kiosk view, plus the telemetry the kiosk last reported ' +
      '(`fillLevel`, `firmwareVersion`, `errorCode`) and the kinds of its open alerts. A kiosk whose stored ' +
      'record is damaged is left out (and logged), as in GET /kiosks.',
    tag: 'Administration',
    responses: {
      200: answerWith('The kiosks, by id', 'kiosks', ['AdminKiosk'], [adminKioskExample]),
    },
  },
});
