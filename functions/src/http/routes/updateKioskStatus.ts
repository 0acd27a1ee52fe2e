import { fleetSettings } from '../../config';
import { logInfo } from '../../log';
import { toKioskView } from '../../domain/kiosk';
import { applyStatusReport } from '../../services/statusReport';
import { requireKiosk, type KioskCaller } from '../auth';
import type { KioskStatusBody } from '../../model/requestBodies';
import { kioskAnswer, overloadedAnswer } from '../apiDescription/routeAnswers';
import type { Route } from '../types';

/** POST /kiosk/{kioskId}/status: the kiosk reports its own state and telemetry, with its own key. */
export const updateKioskStatusRoute: Route<KioskStatusBody, KioskCaller> = {
  method: 'POST',
  path: '/kiosk/:kioskId/status',
  authenticate: ({ headers, params }) => requireKiosk(headers, params.kioskId),
  bodySchema: 'kioskStatusBody',
  handler: async ({ params, body }) => {
    const { onlineMinutes, fillAlertPercent } = fleetSettings();
    const kiosk = await applyStatusReport(params.kioskId, body, fillAlertPercent);
    logInfo('kiosk_status_changed', { kioskId: kiosk.id, status: kiosk.status });
    return { body: { success: true, kiosk: toKioskView(kiosk, new Date(), onlineMinutes) } };
  },
  doc: {
    operationId: 'reportKioskStatus',
    summary: "Report the kiosk's status and telemetry",
    description:
      'The kiosk sets its own status with its own key; `lastUpdated` is refreshed. Only an `available` kiosk ' +
      'accepts transactions. `status` is always required; the telemetry is optional: `fillLevel` per bin (a bin ' +
      'not named keeps its last level), `firmwareVersion`, and `errorCode` (`null` clears it; any other field ' +
      'sent as `null` is as if omitted). Telemetry is shown to admins only (GET /admin/kiosks). A report that ' +
      'puts a bin at or above FILL_ALERT_PERCENT opens a `bin-full` alert, one with an error code an `error` ' +
      'alert; the report that ends the condition resolves it. Every request with a valid key records the kiosk ' +
      'as seen (`lastSeenAt`).',
    tag: 'Kiosk devices',
    access: 'kiosk',
    example: { status: 'available', fillLevel: { plastic: 72, metal: 35 }, firmwareVersion: '2.4.1', errorCode: null },
    responses: {
      200: kioskAnswer('The kiosk as now stored'),
      404: { description: 'The kiosk of this key no longer exists', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
};
