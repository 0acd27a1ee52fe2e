import { fleetSettings } from '../../config';
import { listKiosks } from '../../data/kiosks';
import { KIOSK_STATUSES, isKioskStatus, toKioskView } from '../../domain/kiosk';
import { badRequest } from '../../errors';
import { kioskExample, kioskSchema, successBody } from '../components';
import type { Route } from '../types';

/** GET /kiosks[?status=]: every kiosk for the map, optionally only those in one state. */
export const listKiosksRoute: Route = {
  method: 'GET',
  path: '/kiosks',
  query: {
    status: { description: 'Only the kiosks in this state', schema: { type: 'string', enum: KIOSK_STATUSES } },
  },
  handler: async ({ query }) => {
    const { status } = query;
    if (status !== undefined && !isKioskStatus(status)) {
      throw badRequest(`status must be one of ${KIOSK_STATUSES.join(', ')}`);
    }
    const now = new Date();
    const { onlineMinutes } = fleetSettings();
    const kiosks = await listKiosks(status);
    return { body: { success: true, kiosks: kiosks.map((kiosk) => toKioskView(kiosk, now, onlineMinutes)) } };
  },
  doc: {
    operationId: 'listKiosks',
    summary: 'List the kiosks for the map',
    description:
      'Every kiosk, or only those in one state. A kiosk whose stored record is damaged is left out (and logged ' +
      'for the operators) rather than failing the list.',
    tag: 'Kiosks',
    access: 'public',
    responses: {
      200: {
        description: 'The kiosks, in no particular order',
        schema: successBody({ kiosks: { type: 'array', items: kioskSchema } }),
        example: { success: true, kiosks: [kioskExample] },
      },
      400: { description: '`status` is not one of the kiosk states', codes: ['invalid-argument'] },
    },
  },
};
