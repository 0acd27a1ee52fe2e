import { logInfo } from '../../log';
import { revokeKey } from '../../data/kioskKeys';
import { notFound } from '../../errors';
import { adminRoute } from '../accessRoutes';
import { overloadedAnswer } from '../apiDescription/routeAnswers';

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
      200: { description: 'Revoked', schema: ({ successBody }) => successBody({}), example: { success: true } },
      404: { description: 'This kiosk has no key with this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
