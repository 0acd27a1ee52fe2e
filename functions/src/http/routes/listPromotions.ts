import { allPromotions } from '../../data/promotions';
import { adminRoute } from '../accessRoutes';
import { adminPromotionExample } from '../apiDescription/promotionExamples';
import { answerWith } from '../apiDescription/routeAnswers';

/** GET /admin/promotions: every promotion, with what it gave (contract §16). */
export const listPromotionsRoute = adminRoute({
  method: 'GET',
  path: '/admin/promotions',
  handler: async () => ({ body: { success: true, promotions: await allPromotions() } }),
  doc: {
    operationId: 'listPromotions',
    summary: 'Every promotion, with the points it gave',
    description:
      'Every promotion, active or not, by id, with `pointsGiven`: the points it gave, every award answered ' +
      "before this read included (the sum of its entries in the transactions' `breakdown`).",
    tag: 'Promotions',
    responses: {
      200: answerWith('The promotions by id', 'promotions', ['AdminPromotion'], [adminPromotionExample]),
    },
  },
});
