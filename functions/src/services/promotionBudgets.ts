import type { DocumentReference, DocumentSnapshot, WriteBatch } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import {
  BUDGET_SHARDS,
  activePromotions,
  shardFromSnapshot,
  shardRef,
  shardRefs,
  type BudgetShard,
  type StoredPromotion,
} from '../data/promotions';
import type { Deposit } from '../domain/deposit';
import { pointsByPromotion, promotionApplies, type ApplyingPromotion, type DepositSetting } from '../domain/promotions';
import { logWarn } from '../log';
import type { BreakdownEntry } from '../model/promotionViews';

/*
 * What an award takes from the promotions' budgets (docs/promotions.md). A promotion's
 * count is spread over BUDGET_SHARDS shards; an award reads the shards of the
 * promotions that may apply to its deposits in the same getAll as the user document
 * (no extra round trip), takes from its user's own shard first and, when that one is
 * short, from the next ones, and updates those it took from in the same commit as the
 * award, each under a `lastUpdateTime` precondition: two awards that took from one shard
 * at once cannot both commit (the loser reads again), so no promotion ever gives more
 * than its budget, and `pointsGiven` (the shards' sum) is every answered award's points.
 * A promotion without a budget is counted the same way, on its user's shard alone.
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

/** The shards of `promotion` an award of `userId` reads, in the order it takes from them. */
function shardOrder(promotion: StoredPromotion, userId: string): number[] {
  const home = homeShard(userId);
  const count = promotion.budgetPoints === null ? 1 : BUDGET_SHARDS;
  return Array.from({ length: count }, (_, step) => (home + step) % BUDGET_SHARDS);
}

interface ReadShard {
  ref: DocumentReference;
  snapshot: DocumentSnapshot;
  shard: BudgetShard;
  taken: number;
}

/** Where and when a deposit was made, as the promotions judge it (§16), its kiosk's clock among `clocks`. */
export const depositSetting = (deposit: Deposit, clocks: Map<string, DepositSetting['kiosk']>): DepositSetting => ({
  kioskId: deposit.kioskId,
  totalItems: deposit.plasticCount + deposit.metalCount,
  occurredAt: deposit.happenedAt,
  kiosk: clocks.get(deposit.kioskId)!,
});

/** What one user's commit reads of the budgets, and takes from them as its awards are computed. */
export interface PromotionBudgets {
  /** The promotions that apply to the deposit, each with what its budget has left (after this commit's takes). */
  applying(setting: DepositSetting): ApplyingPromotion[];
  /** Takes each promotion's points of `breakdown` from its shards. */
  take(breakdown: readonly BreakdownEntry[]): void;
  /** Stages the shards taken from, each under a precondition on the version read. */
  stage(batch: WriteBatch): void;
}

/**
 * Reads `reads` (the award's own documents) together with the shards of the promotions
 * that may apply to `settings`, in one getAll. A shard written by a change of its
 * promotion after the promotions were read (another revision) means the terms read are
 * old: they are read again, so a change applies to every deposit after its answer.
 */
export async function readWithBudgets(
  promotions: { current: StoredPromotion[] },
  reads: DocumentReference[],
  settings: DepositSetting[],
  userId: string,
): Promise<{ snapshots: DocumentSnapshot[]; budgets: PromotionBudgets }> {
  for (let attempt = 1; ; attempt++) {
    const candidates = promotions.current.filter((promotion) =>
      settings.some((setting) => promotionApplies(promotion, setting)),
    );
    const orders = candidates.map((promotion) => shardOrder(promotion, userId));
    const refs = candidates.flatMap((promotion, index) => orders[index].map((shard) => shardRef(promotion.id, shard)));
    const all = await db().getAll(...reads, ...refs);
    const shardSnaps = all.slice(reads.length);
    const shards = new Map<string, ReadShard[]>();
    let offset = 0;
    for (const [index, promotion] of candidates.entries()) {
      const snaps = shardSnaps.slice(offset, offset + orders[index].length);
      offset += orders[index].length;
      shards.set(
        promotion.id,
        snaps.map((snapshot) => ({ ref: snapshot.ref, snapshot, shard: shardFromSnapshot(snapshot), taken: 0 })),
      );
    }
    const stale = candidates.some((promotion) =>
      shards.get(promotion.id)!.some(({ shard }) => shard.revision !== null && shard.revision !== promotion.revision),
    );
    // Still another revision after a few reads: a promotion broken by hand, or changed without pause. The award goes
    // on with what it read (its preconditions still keep the budgets exact) rather than refuse the kiosk.
    if (!stale || attempt === MAX_READS) {
      if (stale) logWarn('promotion_revisions_differ', { promotionIds: candidates.map(({ id }) => id) });
      return { snapshots: all.slice(0, reads.length), budgets: budgetsOf(candidates, shards) };
    }
    promotions.current = await activePromotions();
  }
}

/** How many times an award reads the promotions and their shards when one changed under it. */
const MAX_READS = 5;

/** What a shard has left to give; null: no limit. */
const shardLeft = ({ shard, taken }: ReadShard): number | null =>
  shard.allotment === null ? null : Math.max(0, shard.allotment - shard.given - taken);

function budgetsOf(candidates: StoredPromotion[], shards: Map<string, ReadShard[]>): PromotionBudgets {
  const left = (promotionId: string): number | null => {
    let sum = 0;
    for (const shard of shards.get(promotionId)!) {
      const points = shardLeft(shard);
      if (points === null) return null;
      sum += points;
    }
    return sum;
  };
  return {
    applying: (setting) =>
      candidates
        .filter((promotion) => promotionApplies(promotion, setting) && left(promotion.id) !== 0)
        .map(({ id, name, multiplier, bonusPoints }) => ({ id, name, multiplier, bonusPoints, left: left(id) })),
    take: (breakdown) => {
      for (const [promotionId, points] of pointsByPromotion(breakdown)) {
        let wanted = points;
        for (const shard of shards.get(promotionId)!) {
          const taken = Math.min(wanted, shardLeft(shard) ?? wanted);
          shard.taken += taken;
          wanted -= taken;
        }
        // depositWorth never gives more than left(): a remainder is a defect, never a gift.
        if (wanted > 0) throw new Error(`promotion ${promotionId} gave ${wanted} points more than its budget had left`);
      }
    },
    stage: (batch) => {
      for (const promotionShards of shards.values()) {
        for (const { ref, snapshot, shard, taken } of promotionShards) {
          if (taken > 0) batch.update(ref, { given: shard.given + taken }, { lastUpdateTime: snapshot.updateTime! });
        }
      }
    },
  };
}

/** What each promotion has left to give now (null: no limit), read in one round trip (simulation, the public list). */
export async function budgetsLeft(promotions: StoredPromotion[]): Promise<Map<string, number | null>> {
  const budgeted = promotions.filter(({ budgetPoints }) => budgetPoints !== null);
  const left = new Map<string, number | null>(promotions.map(({ id }) => [id, null]));
  if (budgeted.length === 0) return left;
  const snaps = await db().getAll(...budgeted.flatMap(({ id }) => shardRefs(id)));
  for (const promotion of budgeted) left.set(promotion.id, 0);
  for (const snap of snaps) {
    const promotionId = snap.ref.parent.parent!.id;
    const { allotment, given } = shardFromSnapshot(snap);
    left.set(promotionId, left.get(promotionId)! + Math.max(0, (allotment ?? 0) - given));
  }
  return left;
}
