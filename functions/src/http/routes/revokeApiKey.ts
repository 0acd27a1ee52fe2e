import { revokeKey } from '../../data/kioskKeys';
import { partnerKeys } from '../../data/partners';
import { notFound } from '../../errors';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import type { ApiTag } from '../apiDescription/operation';
import { doneAnswer, overloadedAnswer } from '../apiDescription/routeAnswers';

/**
 * DELETE /admin/{holder}s/{holderId}/keys/{keyId} for kiosks and partners alike (their
 * keys are stored alike, data/apiKeys.ts): the key stops working at once, logged as
 * `{holder}_key_revoked`; 404 when the holder has no such key.
 */
const revokeApiKeyRoute = (
  holder: 'kiosk' | 'partner',
  tag: ApiTag,
  revoke: (holderId: string, keyId: string) => Promise<boolean>,
) => {
  const holderField = `${holder}Id`;
  const Holder = holder[0].toUpperCase() + holder.slice(1);
  return adminRoute({
    method: 'DELETE',
    path: `/admin/${holder}s/:${holderField}/keys/:keyId`,
    handler: async ({ params, caller }) => {
      const holderId = params[holderField];
      if (!(await revoke(holderId, params.keyId))) {
        throw notFound(`API key ${params.keyId} not found for ${holder} ${holderId}`);
      }
      logInfo(`${holder}_key_revoked`, { [holderField]: holderId, keyId: params.keyId, by: caller.uid });
      return { body: { success: true } };
    },
    doc: {
      operationId: `revoke${Holder}Key`,
      summary: `Revoke a ${holder} API key`,
      description: 'The key stops working at once. Revoking a revoked key again is fine.',
      tag,
      responses: {
        200: doneAnswer('Revoked'),
        404: { description: `This ${holder} has no key with this id`, codes: ['not-found'] },
        503: overloadedAnswer,
      },
    },
  });
};

export const revokeKioskKeyRoute = revokeApiKeyRoute('kiosk', 'Administration', revokeKey);

export const revokePartnerKeyRoute = revokeApiKeyRoute('partner', 'Partners', partnerKeys.revokeKey);
