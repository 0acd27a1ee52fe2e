import { logInfo } from '../../log';
import type { VerifiedCaller } from '../../adapters/identity';
import { assertKioskExists, upsertKiosk } from '../../data/kiosks';
import { issueKey, revokeKey } from '../../data/kioskKeys';
import { assertKioskDefinition, toKioskView } from '../../domain/kiosk';
import { notFound } from '../../errors';
import { requireAdmin } from '../auth';
import type { AdminKioskBody, KioskKeyBody } from '../schemas';
import type { Route } from '../types';

const adminOnly = ({ headers }: { headers: Parameters<typeof requireAdmin>[0] }) => requireAdmin(headers);

/** POST /admin/kiosks: create (201) or update (200) a kiosk; counters are never touched. */
export const upsertKioskRoute: Route<AdminKioskBody, VerifiedCaller> = {
  method: 'POST',
  path: '/admin/kiosks',
  authenticate: adminOnly,
  bodySchema: 'adminKioskBody',
  handler: async ({ body, caller }) => {
    const { kiosk, created } = await upsertKiosk(assertKioskDefinition(body));
    logInfo(created ? 'kiosk_created' : 'kiosk_updated', { kioskId: kiosk.id, by: caller.uid });
    return { status: created ? 201 : 200, body: { success: true, kiosk: toKioskView(kiosk, new Date()) } };
  },
};

/** POST /admin/kiosks/{kioskId}/keys: a new API key for the kiosk, shown only in this answer. */
export const createKioskKeyRoute: Route<KioskKeyBody, VerifiedCaller> = {
  method: 'POST',
  path: '/admin/kiosks/:kioskId/keys',
  authenticate: adminOnly,
  bodySchema: 'kioskKeyBody',
  handler: async ({ params, body, caller }) => {
    await assertKioskExists(params.kioskId);
    const { keyId, apiKey } = await issueKey(params.kioskId, body.label ?? '');
    logInfo('kiosk_key_issued', { kioskId: params.kioskId, keyId, by: caller.uid });
    return { status: 201, body: { success: true, keyId, apiKey } };
  },
};

/** DELETE /admin/kiosks/{kioskId}/keys/{keyId}: the key stops working at once. */
export const revokeKioskKeyRoute: Route<undefined, VerifiedCaller> = {
  method: 'DELETE',
  path: '/admin/kiosks/:kioskId/keys/:keyId',
  authenticate: adminOnly,
  handler: async ({ params, caller }) => {
    if (!(await revokeKey(params.kioskId, params.keyId))) {
      throw notFound(`API key ${params.keyId} not found for kiosk ${params.kioskId}`);
    }
    logInfo('kiosk_key_revoked', { kioskId: params.kioskId, keyId: params.keyId, by: caller.uid });
    return { body: { success: true } };
  },
};
