import { fleetSettings } from '../../config';
import { logInfo } from '../../log';
import { assertKioskExists, upsertKiosk } from '../../data/kiosks';
import { issueKey, revokeKey } from '../../data/kioskKeys';
import { assertKioskDefinition, toKioskView } from '../../domain/kiosk';
import { notFound } from '../../errors';
import { adminRoute } from '../accessRoutes';
import { kioskAnswer } from '../answers';
import { kioskExample, successBody } from '../components';
import type { AdminKioskBody, KioskKeyBody } from '../schemas';

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
    },
  },
});

/** POST /admin/kiosks/{kioskId}/keys: a new API key for the kiosk, shown only in this answer. */
export const createKioskKeyRoute = adminRoute<KioskKeyBody>({
  method: 'POST',
  path: '/admin/kiosks/:kioskId/keys',
  bodySchema: 'kioskKeyBody',
  handler: async ({ params, body, caller }) => {
    await assertKioskExists(params.kioskId);
    const { keyId, apiKey } = await issueKey(params.kioskId, body.label ?? '');
    logInfo('kiosk_key_issued', { kioskId: params.kioskId, keyId, by: caller.uid });
    return { status: 201, body: { success: true, keyId, apiKey } };
  },
  doc: {
    operationId: 'createKioskKey',
    summary: 'Issue an API key for a kiosk',
    description:
      "A new key for the kiosk's X-API-Key header. The key is shown in this answer only: the service keeps its " +
      'SHA-256 (`keyId`), never the key.',
    tag: 'Administration',
    example: { label: 'front panel' },
    responses: {
      201: {
        description: 'The new key',
        schema: successBody({
          keyId: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the key, hex; revoke by it' },
          apiKey: { type: 'string', minLength: 1, description: 'The key itself; store it on the kiosk now' },
        }),
        example: {
          success: true,
          keyId: '3f1c1b0e8a9d4c2b7e6f5a4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a190',
          apiKey: 'kr_q2V0bWUtZXhhbXBsZS1rZXktbm90LWEtcmVhbC1vbmUtMTIz',
        },
      },
      404: { description: 'No kiosk has this id', codes: ['not-found'] },
    },
  },
});

/** DELETE /admin/kiosks/{kioskId}/keys/{keyId}: the key stops working at once. */
export const revokeKioskKeyRoute = adminRoute({
  method: 'DELETE',
  path: '/admin/kiosks/:kioskId/keys/:keyId',
  handler: async ({ params, caller }) => {
    if (!(await revokeKey(params.kioskId, params.keyId))) {
      throw notFound(`API key ${params.keyId} not found for kiosk ${params.kioskId}`);
    }
    logInfo('kiosk_key_revoked', { kioskId: params.kioskId, keyId: params.keyId, by: caller.uid });
    return { body: { success: true } };
  },
  doc: {
    operationId: 'revokeKioskKey',
    summary: 'Revoke a kiosk API key',
    description: 'The key stops working at once. Revoking a revoked key again is fine.',
    tag: 'Administration',
    responses: {
      200: { description: 'Revoked', schema: successBody({}), example: { success: true } },
      404: { description: 'This kiosk has no key with this id', codes: ['not-found'] },
    },
  },
});
