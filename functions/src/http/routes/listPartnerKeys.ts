import { assertPartnerExists, partnerKeys } from '../../data/partners';
import { adminRoute } from '../accessRoutes';
import { answerWith } from '../apiDescription/routeAnswers';

/** GET /admin/partners/{partnerId}/keys: the partner's API keys, newest first, without the keys themselves. */
export const listPartnerKeysRoute = adminRoute({
  method: 'GET',
  path: '/admin/partners/:partnerId/keys',
  handler: async ({ params }) => {
    await assertPartnerExists(params.partnerId);
    return { body: { success: true, keys: await partnerKeys.keysOf(params.partnerId) } };
  },
  doc: {
    operationId: 'listPartnerKeys',
    summary: "List a partner's API keys",
    description:
      'Every key issued for the partner, revoked ones too (`revokedAt`), newest first, with its `keyId` to revoke ' +
      'it by. Never the key itself.',
    tag: 'Partners',
    responses: {
      200: answerWith(
        "The partner's keys, newest first",
        'keys',
        ['PartnerKey'],
        [
          {
            keyId: '3f1c1b0e8a9d4c2b7e6f5a4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a190',
            label: 'till 1',
            createdAt: '2026-11-20T09:14:03.000Z',
            revokedAt: null,
          },
        ],
      ),
      404: { description: 'No partner has this id', codes: ['not-found'] },
    },
  },
});
