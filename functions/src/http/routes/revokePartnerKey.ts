import { partnerKeys } from '../../data/partners';
import { notFound } from '../../errors';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import { overloadedAnswer } from '../apiDescription/routeAnswers';

/** DELETE /admin/partners/{partnerId}/keys/{keyId}: the key stops working at once. */
export const revokePartnerKeyRoute = adminRoute({
  method: 'DELETE',
  path: '/admin/partners/:partnerId/keys/:keyId',
  handler: async ({ params, caller }) => {
    if (!(await partnerKeys.revokeKey(params.partnerId, params.keyId))) {
      throw notFound(`API key ${params.keyId} not found for partner ${params.partnerId}`);
    }
    logInfo('partner_key_revoked', { partnerId: params.partnerId, keyId: params.keyId, by: caller.uid });
    return { body: { success: true } };
  },
  doc: {
    operationId: 'revokePartnerKey',
    summary: 'Revoke a partner API key',
    description: 'The key stops working at once. Revoking a revoked key again is fine.',
    tag: 'Partners',
    responses: {
      200: { description: 'Revoked', schema: ({ successBody }) => successBody({}), example: { success: true } },
      404: { description: 'This partner has no key with this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
