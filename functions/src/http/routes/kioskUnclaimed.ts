import { unclaimedCountOf } from '../../data/claims';
import { assertKioskExists } from '../../data/kiosks';
import { adminRoute } from '../accessRoutes';
import type { SchemaOf } from '../apiDescription/operation';

const answerSchema: SchemaOf = ({ successBody, count }) =>
  successBody({ unclaimed: { ...count, description: 'Deposits without a user not claimed yet, expired ones too' } });

/** GET /admin/kiosks/{kioskId}/unclaimed: how many of the kiosk's anonymous deposits wait for a claim (§18). */
export const kioskUnclaimedRoute = adminRoute({
  method: 'GET',
  path: '/admin/kiosks/:kioskId/unclaimed',
  handler: async ({ params }) => {
    await assertKioskExists(params.kioskId);
    return { body: { success: true, unclaimed: await unclaimedCountOf(params.kioskId) } };
  },
  doc: {
    operationId: 'countUnclaimedDeposits',
    summary: "Count a kiosk's unclaimed deposits",
    description:
      'How many deposits made at this kiosk without a user (`userId: null`) are still unclaimed, those whose code ' +
      'has expired included: their items are counted on the kiosk, their points credited to nobody.',
    tag: 'Administration',
    responses: {
      200: { description: 'The count', schema: answerSchema, example: { success: true, unclaimed: 4 } },
      404: { description: 'No kiosk has this id', codes: ['not-found'] },
    },
  },
});
