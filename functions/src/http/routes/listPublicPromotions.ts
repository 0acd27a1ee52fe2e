import { promotionsOnOffer } from '../../services/promotions';
import { assertDocumentId } from '../../domain/ids';
import { publicPromotionExample } from '../apiDescription/promotionExamples';
import { answerWith } from '../apiDescription/routeAnswers';
import type { Route } from '../types';

/** GET /promotions[?kioskId=]: the promotions on offer, as apps show them (contract §16). */
export const listPublicPromotionsRoute: Route = {
  method: 'GET',
  path: '/promotions',
  query: {
    kioskId: {
      description: 'Only the promotions at this kiosk (those for every kiosk included)',
      schema: ({ id }) => id,
    },
  },
  handler: async ({ query }) => {
    const kioskId = query.kioskId === undefined ? undefined : assertDocumentId(query.kioskId, 'kioskId');
    return { body: { success: true, promotions: await promotionsOnOffer(kioskId) } };
  },
  doc: {
    operationId: 'listPromotionsOnOffer',
    summary: 'The promotions on offer',
    description:
      'The active promotions that have not ended and whose budget is not spent, those not started yet included, ' +
      'soonest ending first and those without an end last. No budget figures.',
    tag: 'Promotions',
    access: 'public',
    responses: {
      200: answerWith('The promotions on offer', 'promotions', ['PublicPromotion'], [publicPromotionExample]),
      400: { description: '`kioskId` is not a valid id', codes: ['invalid-argument'] },
    },
  },
};
