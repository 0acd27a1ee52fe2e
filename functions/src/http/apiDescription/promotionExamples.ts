import type { AdminPromotionView, PublicPromotionView } from '../../model/promotionViews';

/** Double points on weekends at two kiosks, with a budget: the example of docs/promotions.md. */
export const publicPromotionExample: PublicPromotionView = {
  id: 'weekend-double',
  name: 'Double points this weekend',
  multiplier: 2,
  bonusPoints: null,
  minItems: null,
  startsAt: '2026-11-01T00:00:00.000Z',
  endsAt: '2027-01-01T00:00:00.000Z',
  hours: 'Sa,Su 00:00-24:00',
  kioskIds: ['berlin-alexanderplatz', 'berlin-zoo'],
};

export const adminPromotionExample: AdminPromotionView = {
  ...publicPromotionExample,
  active: true,
  budgetPoints: 200_000,
  pointsGiven: 48_210,
  createdAt: '2026-10-28T09:12:00.000Z',
  updatedAt: '2026-10-28T09:12:00.000Z',
};
