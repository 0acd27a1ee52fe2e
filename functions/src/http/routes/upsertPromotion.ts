import { promotionFromBody, upsertPromotion } from '../../data/promotions';
import { logInfo } from '../../log';
import { MAX_ACTIVE_PROMOTIONS } from '../../model/limits';
import { adminRoute } from '../accessRoutes';
import type { PromotionBody } from '../../model/promotionViews';
import { adminPromotionExample } from '../apiDescription/promotionExamples';
import { answerWith, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/promotions: create (201) or replace (200) a promotion (contract §16). */
export const upsertPromotionRoute = adminRoute<PromotionBody>({
  method: 'POST',
  path: '/admin/promotions',
  bodySchema: 'promotionBody',
  handler: async ({ body, caller }) => {
    const { promotion, created } = await upsertPromotion(promotionFromBody(body));
    logInfo(created ? 'promotion_created' : 'promotion_replaced', { promotionId: promotion.id, by: caller.uid });
    return { status: created ? 201 : 200, body: { success: true, promotion } };
  },
  doc: {
    operationId: 'upsertPromotion',
    summary: 'Create or replace a promotion',
    description:
      'Creates the promotion under `id` (201) or replaces it whole (200): an omitted field takes its default ' +
      '(`active` true, every other field null), and a replacement keeps `createdAt` and `pointsGiven`. Exactly one ' +
      'of `multiplier` (only the largest applying one counts, adding floor(base × (multiplier − 1))) and ' +
      '`bonusPoints` (every applying one adds). The window `[startsAt, endsAt)` and `hours` are judged at the ' +
      "deposit's `occurredAt` (in the kiosk's time zone), so a kiosk that uploads late still gets them; `active`, " +
      '`kioskIds`, `minItems` and the budget when the deposit is accepted: a change applies to every deposit that ' +
      'arrives after its answer. A budget lowered below what the promotion gave ends it.',
    tag: 'Promotions',
    example: {
      id: 'weekend-double',
      name: 'Double points this weekend',
      startsAt: '2026-11-01T00:00:00Z',
      endsAt: '2027-01-01T00:00:00Z',
      hours: 'Sa,Su 00:00-24:00',
      kioskIds: ['berlin-alexanderplatz', 'berlin-zoo'],
      multiplier: 2,
      budgetPoints: 200000,
    },
    responses: {
      200: answerWith('Replaced', 'promotion', 'AdminPromotion', adminPromotionExample),
      201: answerWith('Created', 'promotion', 'AdminPromotion', { ...adminPromotionExample, pointsGiven: 0 }),
      400: {
        description:
          'A field out of bounds (named): a name of 1-100 characters, both or neither of `multiplier` and ' +
          '`bonusPoints`, a multiplier not above 1, above 10 or with two decimals, `endsAt` not after `startsAt`, ' +
          '`hours` not in opening_hours syntax, 0 or more than 100 `kioskIds`, `minItems` outside 1-1,000, ' +
          '`budgetPoints` outside 1-100,000,000',
        codes: ['invalid-argument'],
      },
      409: {
        description: `Already ${MAX_ACTIVE_PROMOTIONS} promotions active (their terms share one document that every award reads): deactivate one first`,
        codes: ['too-many-promotions'],
      },
      503: overloadedAnswer,
    },
  },
});
