import { kioskClockFromSnapshot, kiosksCollection } from '../data/kiosks';
import { activePromotions, publicView, type StoredPromotion } from '../data/promotions';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { userFromSnapshot, usersCollection } from '../data/users';
import { assertDocumentId } from '../domain/ids';
import { depositWorth, promotionApplies, type DepositWorth } from '../domain/promotions';
import { pointsFor, utcDay } from '../domain/rewards';
import { badRequest, notFound } from '../errors';
import type { PublicPromotionView, SimulateBody } from '../model/promotionViews';
import { budgetsLeft } from './promotionBudgets';

/**
 * What a deposit would earn now (POST /admin/promotions/simulate): the award's own
 * rules on what is stored now, the cap the user's when one is named. Writes nothing.
 */
export async function simulateDeposit(body: SimulateBody): Promise<DepositWorth> {
  // The ids and the instant are checked as a deposit's are (domain/deposit.ts), before anything is read.
  assertDocumentId(body.kioskId, 'kioskId');
  if (body.userId) assertDocumentId(body.userId, 'userId');
  const occurredAt = body.occurredAt ? new Date(body.occurredAt) : new Date();
  if (Number.isNaN(occurredAt.getTime())) throw badRequest('occurredAt must be a valid RFC 3339 date-time');
  const [config, kioskSnap, userSnap, promotions] = await Promise.all([
    loadRewardsConfig(),
    kiosksCollection().doc(body.kioskId).get(),
    body.userId ? usersCollection().doc(body.userId).get() : undefined,
    activePromotions(),
  ]);
  if (!kioskSnap.exists) throw notFound(`Kiosk ${body.kioskId} not found`);
  const user = userSnap && userFromSnapshot(userSnap);
  if (body.userId && !user) throw notFound(`User ${body.userId} not found`);
  const setting = {
    kioskId: body.kioskId,
    totalItems: body.plasticCount + body.metalCount,
    occurredAt,
    kiosk: kioskClockFromSnapshot(kioskSnap),
  };
  const candidates = promotions.filter((promotion) => promotionApplies(promotion, setting));
  const left = await budgetsLeft(candidates);
  const applying = candidates
    .filter(({ id }) => left.get(id) !== 0)
    .map(({ id, name, multiplier, bonusPoints }) => ({ id, name, multiplier, bonusPoints, left: left.get(id)! }));
  const earnedBefore = user?.earnedByDay[utcDay(occurredAt)] ?? 0;
  const base = pointsFor(config, body.plasticCount, body.metalCount);
  return depositWorth(base, applying, config.dailyPointsCap - earnedBefore);
}

/**
 * The promotions on offer (GET /promotions): active, not ended, budget not spent, at
 * `kioskId` when given (or at every kiosk); soonest ending first, open-ended last.
 */
export async function promotionsOnOffer(kioskId: string | undefined, now = new Date()): Promise<PublicPromotionView[]> {
  const offered = (await activePromotions()).filter(
    (promotion) =>
      (promotion.endsAt === null || promotion.endsAt.getTime() > now.getTime()) &&
      (kioskId === undefined || promotion.kioskIds === null || promotion.kioskIds.includes(kioskId)),
  );
  const left = await budgetsLeft(offered);
  return offered
    .filter(({ id }) => left.get(id) !== 0)
    .sort(endingFirst)
    .map(publicView);
}

const endingFirst = (a: StoredPromotion, b: StoredPromotion): number => {
  const ends = (promotion: StoredPromotion) => promotion.endsAt?.getTime() ?? Number.POSITIVE_INFINITY;
  return ends(a) - ends(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
};
