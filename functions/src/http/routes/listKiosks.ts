import { listKiosks } from '../../data/kiosks';
import { KIOSK_STATUSES, isKioskStatus, toKioskView } from '../../domain/kiosk';
import { badRequest } from '../../errors';
import type { Route } from '../types';

/** GET /kiosks[?status=]: every kiosk for the map, optionally only those in one state. */
export const listKiosksRoute: Route = {
  method: 'GET',
  path: '/kiosks',
  query: ['status'],
  handler: async ({ query }) => {
    const { status } = query;
    if (status !== undefined && !isKioskStatus(status)) {
      throw badRequest(`status must be one of ${KIOSK_STATUSES.join(', ')}`);
    }
    const now = new Date();
    const kiosks = await listKiosks(status);
    return { body: { success: true, kiosks: kiosks.map((kiosk) => toKioskView(kiosk, now)) } };
  },
};
