import { isOpenAt } from './openingHours';
import type { Coordinates } from '../model/requestBodies';
import type { BreakdownEntry } from '../model/promotionViews';

/*
 * Promotions (contract §16): what a deposit is worth beyond its base. Plain rules: which
 * promotions apply to a deposit, and what base, promotions and the daily cap make of
 * it. Budgets are counted elsewhere (services/promotionBudgets.ts); here a promotion
 * only comes with what its budget has left.
 */

/** A promotion as an operator defined it (promotions/{id}); null: not limited by that field. */
export interface Promotion {
  id: string;
  name: string;
  active: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  /** OpenStreetMap opening_hours syntax, read in the kiosk's time zone. */
  hours: string | null;
  kioskIds: string[] | null;
  minItems: number | null;
  /** Above 1, at most 10, at most one decimal; exactly one of multiplier and bonusPoints is set. */
  multiplier: number | null;
  bonusPoints: number | null;
  /** The most points it gives in all. */
  budgetPoints: number | null;
}

/** Where and when a deposit was made, as the promotions judge it. */
export interface DepositSetting {
  kioskId: string;
  totalItems: number;
  occurredAt: Date;
  kiosk: { timezone: string; location: Coordinates };
}

/**
 * Whether `promotion` applies to the deposit, its budget aside: active, `occurredAt` in
 * `[startsAt, endsAt)` and within `hours` at the kiosk, the kiosk listed, enough items.
 */
export function promotionApplies(promotion: Promotion, deposit: DepositSetting): boolean {
  const at = deposit.occurredAt.getTime();
  return (
    promotion.active &&
    (promotion.startsAt === null || at >= promotion.startsAt.getTime()) &&
    (promotion.endsAt === null || at < promotion.endsAt.getTime()) &&
    (promotion.kioskIds === null || promotion.kioskIds.includes(deposit.kioskId)) &&
    (promotion.minItems === null || deposit.totalItems >= promotion.minItems) &&
    (promotion.hours === null ||
      isOpenAt(promotion.hours, deposit.kiosk.timezone, deposit.kiosk.location, deposit.occurredAt))
  );
}

/** A promotion that applies to a deposit, with what its budget has left (null: no limit). */
export type ApplyingPromotion = Pick<Promotion, 'id' | 'name' | 'multiplier' | 'bonusPoints'> & {
  left: number | null;
};

/** What a deposit is worth: the points, why (base first, then the promotions as applied), and whether the cap cut them. */
export interface DepositWorth {
  pointsEarned: number;
  breakdown: BreakdownEntry[];
  capped: boolean;
}

/**
 * What `multiplier` adds to `base`: floor(base × (multiplier − 1)), in integers on
 * tenths so that no binary fraction rounds it (×1.2 on 10 adds 2, ×2.3 on 110 adds 143).
 */
export const multiplierExtra = (base: number, multiplier: number): number =>
  Math.floor((base * (Math.round(multiplier * 10) - 10)) / 10);

/** What `promotion` adds to a deposit whose base is `base`, its budget aside. */
export const fullPoints = (promotion: Pick<Promotion, 'multiplier' | 'bonusPoints'>, base: number): number =>
  promotion.multiplier !== null ? multiplierExtra(base, promotion.multiplier) : promotion.bonusPoints!;

/**
 * The promotions in the order they apply: of the multipliers only the largest (the
 * first by id among equals), then every bonus by id.
 */
export function inOrderApplied<T extends Pick<Promotion, 'id' | 'multiplier' | 'bonusPoints'>>(applying: T[]): T[] {
  const byId = [...applying].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const largest = byId
    .filter((promotion) => promotion.multiplier !== null)
    .reduce<T | undefined>((best, next) => (best && best.multiplier! >= next.multiplier! ? best : next), undefined);
  return [...(largest ? [largest] : []), ...byId.filter((promotion) => promotion.bonusPoints !== null)];
}

/**
 * What a deposit of `base` points is worth under the promotions that apply to it and
 * the `capLeft` points the daily cap still allows: the largest multiplier, then the
 * bonuses by id, each limited by its budget's `left`; then the cap cuts the total,
 * from the promotions first (the last applied first), then from the base. An entry
 * that gives 0 is left out, the base's too, so the breakdown sums to `pointsEarned`.
 */
export function depositWorth(base: number, applying: ApplyingPromotion[], capLeft: number): DepositWorth {
  const entries: BreakdownEntry[] = [{ source: 'base', points: base }];
  for (const promotion of inOrderApplied(applying)) {
    const full = fullPoints(promotion, base);
    const points = promotion.left === null ? full : Math.min(full, promotion.left);
    entries.push({ source: 'promotion', promotionId: promotion.id, name: promotion.name, points });
  }
  return capBreakdown(entries, capLeft);
}

/**
 * `entries` (the base first, then the promotions in the order applied) cut to the
 * `capLeft` points the daily cap still allows: from the last applied first, then the
 * base. A claimed deposit (§18) is cut so, from the breakdown it was worth when recorded.
 */
export function capBreakdown(worth: readonly BreakdownEntry[], capLeft: number): DepositWorth {
  const entries = [...worth];
  const uncapped = entries.reduce((sum, entry) => sum + entry.points, 0);
  let over = uncapped - Math.max(0, capLeft);
  for (let index = entries.length - 1; index >= 0 && over > 0; index--) {
    const cut = Math.min(over, entries[index].points);
    entries[index] = { ...entries[index], points: entries[index].points - cut };
    over -= cut;
  }
  const breakdown = entries.filter((entry) => entry.points > 0);
  const pointsEarned = breakdown.reduce((sum, entry) => sum + entry.points, 0);
  return { pointsEarned, breakdown, capped: pointsEarned < uncapped };
}

/** The points each promotion gave in `breakdown`, by id. */
export function pointsByPromotion(breakdown: readonly BreakdownEntry[]): Map<string, number> {
  const given = new Map<string, number>();
  for (const entry of breakdown) {
    if (entry.source === 'promotion')
      given.set(entry.promotionId!, (given.get(entry.promotionId!) ?? 0) + entry.points);
  }
  return given;
}

/** The breakdown of a transaction recorded before promotions existed: all of it was the base. */
export const legacyBreakdown = (pointsEarned: number): BreakdownEntry[] =>
  pointsEarned > 0 ? [{ source: 'base', points: pointsEarned }] : [];
