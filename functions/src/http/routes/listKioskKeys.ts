import { assertKioskExists } from '../../data/kiosks';
import { kioskKeysOf } from '../../data/kioskKeys';
import { adminRoute } from '../accessRoutes';
import { answerWith } from '../apiDescription/routeAnswers';

/** GET /admin/kiosks/{kioskId}/keys: the kiosk's API keys, newest first, without the keys themselves. */
export const listKioskKeysRoute = adminRoute({
  method: 'GET',
  path: '/admin/kiosks/:kioskId/keys',
  handler: async ({ params }) => {
    await assertKioskExists(params.kioskId);
    return { body: { success: true, keys: await kioskKeysOf(params.kioskId) } };
  },
  doc: {
    operationId: 'listKioskKeys',
    summary: "List a kiosk's API keys",
    description:
      'Every key issued for the kiosk, revoked ones too (`revokedAt`), newest first: what each is called and ' +
      'its `keyId` to revoke it by. Never the key itself, which only the answer that issued it showed.',
    tag: 'Administration',
    responses: {
      200: answerWith(
        "The kiosk's keys, newest first",
        'keys',
        ['KioskKey'],
        [
          {
            keyId: '3f1c1b0e8a9d4c2b7e6f5a4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a190',
            label: 'front panel',
            createdAt: '2026-11-20T09:14:03.000Z',
            revokedAt: null,
          },
          {
            keyId: '9a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f',
            label: 'installer laptop',
            createdAt: '2026-10-02T15:40:11.000Z',
            revokedAt: '2026-10-03T08:02:57.000Z',
          },
        ],
      ),
      404: { description: 'No kiosk has this id', codes: ['not-found'] },
    },
  },
});
