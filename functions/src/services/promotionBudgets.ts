import { FieldValue, type DocumentReference, type DocumentSnapshot, type WriteBatch } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import {
  BUDGET_SHARDS,
  activePromotions,
  budgetShardsOf,
  shardFromSnapshot,
  shardRef,
  type StoredPromotion,
} from '../data/promotions';
import type { Deposit } from '../domain/deposit';
import {
  fullPoints,
  pointsByPromotion,
  promotionApplies,
  type ApplyingPromotion,
  type DepositSetting,
} from '../domain/promotions';
import { pointsFor, type RewardsConfig } from '../domain/rewards';
import { logWarn } from '../log';
import type { BreakdownEntry } from '../model/promotionViews';

/*
 * What an award takes from the promotions' budgets (docs/promotions.md). A promotion's
 * count is spread over BUDGET_SHARDS shards of its revision; an award takes from its
 * user's own shard (homeShard), in the award's commit:
 * - a promotion without a budget by a blind increment: nothing read, nothing to contend
 *   on. The shard must exist, so after a change replaced the shards the commit fails and
 *   the award reads the promotions again;
 * - a budgeted one from shards read in the award's getAll, each updated under a
 *   `lastUpdateTime` precondition: two awards that took from one shard at once cannot
 *   both commit (the loser reads again), so no promotion gives more than its budget. The
 *   home shard alone is read when it holds what the deposits could take; else all of
 *   them (one more round trip, at the end of an allotment), the home shard taken first.
 * `pointsGiven` (the shards' sum) is every answered award's points.
 */

/**
 * The shard an award of `userId` takes from first: users are spread evenly, each always
 * on one (an anonymous deposit, §18, on its kiosk's: services/claimAward.ts gives back there).
 */
export function homeShard(userId: string): number {
  let hash = 2166136261;
  for (let index = 0; index < userId.length; index++) hash = Math.imul(hash ^ userId.charCodeAt(index), 16777619);
  return (hash >>> 0) % BUDGET_SHARDS;
}

/** Where and when a deposit was made, as the promotions judge it (§16), with its points before them. */
export type PricedSetting = DepositSetting & { basePoints: number };

/** `deposit`'s setting, its kiosk's clock among `clocks`, its base points by `config`. */
export const depositSetting = (
  deposit: Deposit,
  { clocks, config }: { clocks: Map<string, DepositSetting['kiosk']>; config: RewardsConfig },
): PricedSetting => ({
  kioskId: deposit.kioskId,
  totalItems: deposit.plasticCount + deposit.metalCount,
  occurredAt: deposit.happenedAt,
  kiosk: clocks.get(deposit.kioskId)!,
  basePoints: pointsFor(config, deposit.plasticCount, deposit.metalCount),
});

/** What one user's commit reads of the budgets, and takes from them as its awards are computed. */
export interface PromotionBudgets {
  /** The promotions that apply to the deposit, each with what its budget has left (after this commit's takes). */
  applying(setting: DepositSetting): ApplyingPromotion[];
  /** Takes each promotion's points of `breakdown` from its shards. */
  take(breakdown: readonly BreakdownEntry[]): void;
  /** Stages what was taken: blind increments, and budgeted shards under a precondition on the version read. */
  stage(batch: WriteBatch): void;
}

interface TakenShard {
  ref: DocumentReference;
  /** The version read (a budgeted shard); none: counted blind. */
  read?: DocumentSnapshot;
  allotment: number | null;
  given: number;
  taken: number;
}

/** How many times an award reads the promotions again when a shard it needs is gone (a change replaced it). */
const MAX_READS = 5;

/**
 * Reads the budgets of the award of `shardKey`'s deposits, once per attempt of its commit.
 * The first attempt counts promotions without a budget blind; a later one (its commit
 * failed: a change may have replaced their shards) reads their home shards too.
 */
export function budgetsReader(promotions: { current: StoredPromotion[] }, shardKey: string) {
  const home = homeShard(shardKey);
  let attempts = 0;
  /** Reads `reads` (the award's own documents) with the home shards due, in one getAll. */
  return async function readWithBudgets(
    reads: DocumentReference[],
    settings: PricedSetting[],
  ): Promise<{ snapshots: DocumentSnapshot[]; budgets: PromotionBudgets }> {
    const careful = ++attempts > 1;
    for (let read = 1; ; read++) {
      const candidates = promotions.current.filter((promotion) =>
        settings.some((setting) => promotionApplies(promotion, setting)),
      );
      const homeRead = candidates.filter(({ budgetPoints }) => careful || budgetPoints !== null);
      const all = await db().getAll(...reads, ...homeRead.map((promotion) => shardRef(promotion, home)));
      const homeSnaps = new Map(homeRead.map(({ id }, index) => [id, all[reads.length + index]]));
      const short = candidates.filter((promotion) => {
        const snap = homeSnaps.get(promotion.id);
        return (
          promotion.budgetPoints !== null && snap?.exists && shardLeft(toShard(snap)) < mostWanted(promotion, settings)
        );
      });
      const afterHome = (promotion: StoredPromotion) =>
        Array.from({ length: BUDGET_SHARDS - 1 }, (_, step) => shardRef(promotion, (home + 1 + step) % BUDGET_SHARDS));
      const rest = short.length > 0 ? await db().getAll(...short.flatMap(afterHome)) : [];
      const others = BUDGET_SHARDS - 1;
      const restOf = new Map(short.map(({ id }, index) => [id, rest.slice(index * others, (index + 1) * others)]));
      const missing = [...homeSnaps.values(), ...rest].filter((snap) => !snap.exists);
      if (missing.length === 0 || read === MAX_READS) {
        // Still gone after fresh reads: shards broken by hand. Their promotions give nothing rather than refuse the kiosk.
        const broken = new Set(missing.map((snap) => snap.ref.parent.parent!.id));
        if (broken.size > 0) logWarn('promotion_shards_missing', { promotionIds: [...broken] });
        const shards = new Map<string, TakenShard[]>();
        for (const promotion of candidates.filter(({ id }) => !broken.has(id))) {
          const homeSnap = homeSnaps.get(promotion.id);
          if (promotion.budgetPoints === null) {
            shards.set(promotion.id, [{ ref: shardRef(promotion, home), allotment: null, given: 0, taken: 0 }]);
          } else {
            shards.set(promotion.id, [homeSnap!, ...(restOf.get(promotion.id) ?? [])].map(toShard));
          }
        }
        return { snapshots: all.slice(0, reads.length), budgets: budgetsOf(candidates, shards) };
      }
      promotions.current = await activePromotions();
    }
  };
}

const toShard = (snapshot: DocumentSnapshot): TakenShard => ({
  ref: snapshot.ref,
  read: snapshot,
  ...shardFromSnapshot(snapshot),
  taken: 0,
});

/** What a shard has left to give; infinite: no limit. */
const shardLeft = ({ allotment, given, taken }: TakenShard): number =>
  allotment === null ? Number.POSITIVE_INFINITY : Math.max(0, allotment - given - taken);

/** The most points `promotion` could give the deposits of `settings`: what its home shard must hold to be read alone. */
const mostWanted = (promotion: StoredPromotion, settings: PricedSetting[]): number =>
  settings
    .filter((setting) => promotionApplies(promotion, setting))
    .reduce((sum, setting) => sum + fullPoints(promotion, setting.basePoints), 0);

function budgetsOf(candidates: StoredPromotion[], shards: Map<string, TakenShard[]>): PromotionBudgets {
  const left = (promotionId: string): number | null => {
    const sum = shards.get(promotionId)!.reduce((total, shard) => total + shardLeft(shard), 0);
    return sum === Number.POSITIVE_INFINITY ? null : sum;
  };
  return {
    applying: (setting) =>
      candidates
        .filter(
          (promotion) => shards.has(promotion.id) && promotionApplies(promotion, setting) && left(promotion.id) !== 0,
        )
        .map(({ id, name, multiplier, bonusPoints }) => ({ id, name, multiplier, bonusPoints, left: left(id) })),
    take: (breakdown) => {
      for (const [promotionId, points] of pointsByPromotion(breakdown)) {
        let wanted = points;
        for (const shard of shards.get(promotionId)!) {
          const taken = Math.min(wanted, shardLeft(shard));
          shard.taken += taken;
          wanted -= taken;
        }
        // depositWorth never gives more than left(): a remainder is a defect, never a gift.
        if (wanted > 0) throw new Error(`promotion ${promotionId} gave ${wanted} points more than its budget had left`);
      }
    },
    stage: (batch) => {
      for (const promotionShards of shards.values()) {
        for (const { ref, read, given, taken } of promotionShards) {
          if (taken === 0) continue;
          if (read) batch.update(ref, { given: given + taken }, { lastUpdateTime: read.updateTime! });
          else batch.update(ref, { given: FieldValue.increment(taken) });
        }
      }
    },
  };
}

/** What each promotion has left to give now (null: no limit), each budgeted one's shards read in one query (simulation, the public list). */
export async function budgetsLeft(promotions: StoredPromotion[]): Promise<Map<string, number | null>> {
  const lefts = await Promise.all(
    promotions.map(async ({ budgetPoints, id }) => {
      if (budgetPoints === null) return null;
      const shards = await budgetShardsOf(id).get();
      return shards.docs.reduce((sum, snap) => {
        const { allotment, given } = shardFromSnapshot(snap);
        return sum + Math.max(0, (allotment ?? 0) - given);
      }, 0);
    }),
  );
  return new Map(promotions.map(({ id }, index) => [id, lefts[index]]));
}
