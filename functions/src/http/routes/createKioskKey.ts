import { logInfo } from '../../log';
import { assertKioskExists } from '../../data/kiosks';
import { issueKey } from '../../data/kioskKeys';
import { adminRoute } from '../accessRoutes';
import type { KioskKeyBody } from '../apiDescription/requestBodies';
import { overloadedAnswer } from '../apiDescription/routeAnswers';

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
        schema: ({ Type, successBody, apiKeyId }) =>
          successBody({
            keyId: apiKeyId,
            apiKey: Type.String({ minLength: 1, description: 'The key itself; store it on the kiosk now' }),
          }),
        example: {
          success: true,
          keyId: '3f1c1b0e8a9d4c2b7e6f5a4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a190',
          apiKey: 'kr_q2V0bWUtZXhhbXBsZS1rZXktbm90LWEtcmVhbC1vbmUtMTIz',
        },
      },
      404: { description: 'No kiosk has this id', codes: ['not-found'] },
      503: overloadedAnswer,
    },
  },
});
