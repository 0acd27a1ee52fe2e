import { fleetSettings } from '../../config';
import { listKiosks } from '../../data/kiosks';
import { kiosksNear } from '../../data/kiosksNearby';
import { isKioskStatus, toKioskView } from '../../domain/kiosk';
import { NEARBY_LIMIT, RADIUS_KM, nearbySearchOf, roundKm } from '../../domain/nearby';
import { badRequest } from '../../errors';
import { kioskExample } from '../apiDescription/examples';
import type { Route } from '../types';
import { KIOSK_STATUSES } from '../../model/vocabulary';

/**
 * GET /kiosks[?status=]: every kiosk for the map, optionally only those in one state;
 * with near=<lat>,<lng> (and radiusKm, limit) only those around that point, nearest first.
 */
export const listKiosksRoute: Route = {
  method: 'GET',
  path: '/kiosks',
  query: {
    status: { description: 'Only the kiosks in this state', schema: ({ stringEnum }) => stringEnum(KIOSK_STATUSES) },
    near: {
      description:
        'Search around this point: `latitude,longitude` in decimal degrees (WGS 84), e.g. `52.5219,13.4132`. ' +
        'Then only the kiosks within `radiusKm` are listed, nearest first, each with `distanceKm`.',
      explode: false,
      // JSON Schema 2020-12's tuple (TypeBox's Tuple is the draft-07 form).
      schema: ({ Type }) =>
        Type.Array(Type.Number(), {
          prefixItems: [
            Type.Number({ minimum: -90, maximum: 90, description: 'Latitude' }),
            Type.Number({ minimum: -180, maximum: 180, description: 'Longitude' }),
          ],
          minItems: 2,
          maxItems: 2,
        }),
    },
    radiusKm: {
      description: 'With `near`: how far from the point to look, in kilometres (great-circle distance)',
      schema: ({ Type }) => Type.Number({ minimum: RADIUS_KM.min, maximum: RADIUS_KM.max, default: RADIUS_KM.default }),
    },
    limit: {
      description: 'With `near`: at most this many kiosks, the nearest',
      schema: ({ Type }) =>
        Type.Integer({ minimum: NEARBY_LIMIT.min, maximum: NEARBY_LIMIT.max, default: NEARBY_LIMIT.default }),
    },
  },
  handler: async ({ query }) => {
    const { status } = query;
    if (status !== undefined && !isKioskStatus(status)) {
      throw badRequest(`status must be one of ${KIOSK_STATUSES.join(', ')}`);
    }
    const search = nearbySearchOf(query);
    const now = new Date();
    const { onlineMinutes } = fleetSettings();
    if (search) {
      const found = await kiosksNear(search, status);
      const kiosks = found.map(({ kiosk, distanceKm }) => ({
        ...toKioskView(kiosk, now, onlineMinutes),
        distanceKm: roundKm(distanceKm),
      }));
      return { body: { success: true, kiosks } };
    }
    const kiosks = await listKiosks(status);
    return { body: { success: true, kiosks: kiosks.map((kiosk) => toKioskView(kiosk, now, onlineMinutes)) } };
  },
  doc: {
    operationId: 'listKiosks',
    summary: 'List the kiosks for the map, or those near a point',
    description:
      'Every kiosk, or only those in one state. With `near`, only the kiosks within `radiusKm` of that point ' +
      '(default 5 km), nearest first, at most `limit` (default 50), each with its `distanceKm`; the search reads ' +
      'only the kiosks stored in the geohash cells around the point, never the whole fleet. A kiosk whose stored ' +
      'record is damaged is left out (and logged for the operators) rather than failing the list.',
    tag: 'Kiosks',
    access: 'public',
    responses: {
      200: {
        description: 'The kiosks: in no particular order, or with `near` nearest first (each a `NearbyKiosk`)',
        schema: ({ Type, successBody, Kiosk, NearbyKiosk }) =>
          successBody({ kiosks: Type.Array(Type.Unsafe({ oneOf: [Kiosk, NearbyKiosk] })) }),
        example: { success: true, kiosks: [kioskExample] },
      },
      400: {
        description:
          '`status` is not one of the kiosk states; `near`, `radiusKm` or `limit` is malformed or out of bounds, ' +
          'or `radiusKm` or `limit` is given without `near` (the message names the parameter)',
        codes: ['invalid-argument'],
      },
    },
  },
};
