import { simulateDeposit } from '../../services/promotions';
import { adminRoute } from '../accessRoutes';
import type { SimulateBody } from '../../model/promotionViews';

/** POST /admin/promotions/simulate: what a deposit would earn now, writing nothing (contract §16). */
export const simulatePromotionsRoute = adminRoute<SimulateBody>({
  method: 'POST',
  path: '/admin/promotions/simulate',
  bodySchema: 'simulateBody',
  handler: async ({ body }) => ({ body: { success: true, ...(await simulateDeposit(body)) } }),
  doc: {
    operationId: 'simulatePromotions',
    summary: 'Try the promotions on a deposit',
    description:
      'What the deposit would earn if a kiosk sent it now, by the rules of an award (the promotions as they are ' +
      'now, what their budgets have left, the daily cap of the user named, or of a user who earned nothing that ' +
      'day), with its `breakdown`. Writes nothing.',
    tag: 'Promotions',
    example: {
      kioskId: 'berlin-alexanderplatz',
      userId: 'demo-alice',
      plasticCount: 3,
      metalCount: 2,
      occurredAt: '2026-11-21T10:30:00Z',
    },
    responses: {
      200: {
        description: 'What the deposit would earn',
        schema: ({ successBody, SimulationResult }) => successBody({ ...SimulationResult.properties }),
        example: {
          success: true,
          pointsEarned: 140,
          breakdown: [
            { source: 'base', points: 70 },
            { source: 'promotion', promotionId: 'weekend-double', name: 'Double points this weekend', points: 70 },
          ],
          capped: false,
        },
      },
      400: { description: 'A field out of bounds (named)', codes: ['invalid-argument'] },
      404: { description: 'No such kiosk, or no such user', codes: ['not-found'] },
    },
  },
});
