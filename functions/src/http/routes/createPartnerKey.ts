import { assertPartnerExists, partnerKeys } from '../../data/partners';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import type { KioskKeyBody } from '../apiDescription/requestBodies';
import { overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/partners/{partnerId}/keys: a new API key for the partner, shown only in this answer. */
export const createPartnerKeyRoute = adminRoute<KioskKeyBody>({
  method: 'POST',
  path: '/admin/partners/:partnerId/keys',
  bodySchema: 'kioskKeyBody',
  handler: async ({ params, body, caller }) => {
    await assertPartnerExists(params.partnerId);
    const { keyId, apiKey } = await partnerKeys.issueKey(params.partnerId, body.label ?? '');
    logInfo('partner_key_issued', { partnerId: params.partnerId, keyId, by: caller.uid });
    return { status: 201, body: { success: true, key: apiKey, keyId } };
  },
  doc: {
    operationId: 'createPartnerKey',
    summary: 'Issue an API key for a partner',
    description:
      "A new key for the partner's X-API-Key header on /partner/* (refused on kiosk routes). The key is shown in " +
      'this answer only: the service keeps its SHA-256 (`keyId`), never the key.',
    tag: 'Partners',
    example: { label: 'till 1' },
    responses: {
      201: {
        description: 'The new key',
        schema: ({ Type, successBody, apiKeyId }) =>
          successBody({
            key: Type.String({ minLength: 1, description: "The key itself; store it in the partner's till now" }),
            keyId: apiKeyId,
          }),
        example: {
          success: true,
          key: 'krp_q2V0bWUtZXhhbXBsZS1rZXktbm90LWEtcmVhbC1vbmUtMTIz',
          keyId: '3f1c1b0e8a9d4c2b7e6f5a4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a190',
        },
      },
      404: { description: 'No partner has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
