/**
 * The rewards catalog (`rewards/{rewardId}`): what points buy. Not to be confused with
 * domain/rewards.ts, the points per item and the ranks (config/rewards).
 */
import { FieldValue, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { assertDocumentId } from '../domain/ids';
import type { RewardDefinition, RewardKind } from '../domain/redemption';

export const rewardsCollection = () => db().collection('rewards');

export interface RewardRecord {
  id: string;
  name: string;
  description: string;
  /** Points, 1-1,000,000. */
  cost: number;
  kind: RewardKind;
  /** Units left; null: unlimited. */
  stock: number | null;
  active: boolean;
}

/** A reward as the catalog shows it. */
export type RewardView = Omit<RewardRecord, 'active'> & { available: boolean };

export function rewardFromSnapshot(snapshot: DocumentSnapshot): RewardRecord | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  return {
    id: snapshot.id,
    name: data.name,
    description: data.description ?? '',
    cost: data.cost,
    kind: data.kind,
    stock: data.stock ?? null,
    active: data.active === true,
  };
}

export const toRewardView = ({ active: _active, ...reward }: RewardRecord): RewardView => ({
  ...reward,
  available: reward.stock !== 0,
});

/** A reward as an operator sees it: also whether it is offered. */
export type AdminRewardView = RewardView & { active: boolean };

export const toAdminRewardView = (reward: RewardRecord): AdminRewardView => ({
  ...toRewardView(reward),
  active: reward.active,
});

/** A rewards/{id} document as written by a create or update; the one place one is written out. */
const rewardDocument = (reward: RewardRecord, created: boolean): DocumentData => ({
  name: reward.name,
  description: reward.description,
  cost: reward.cost,
  kind: reward.kind,
  stock: reward.stock,
  active: reward.active,
  updatedAt: FieldValue.serverTimestamp(),
  ...(created && { createdAt: FieldValue.serverTimestamp() }),
});

/**
 * Creates the reward (description "", unlimited stock, active unless told) or updates
 * it: fields not given are kept. One transaction with the read, so a concurrent
 * redemption's stock change is never overwritten by a stale one.
 */
export async function upsertReward(definition: RewardDefinition): Promise<{ reward: RewardRecord; created: boolean }> {
  const ref = rewardsCollection().doc(assertDocumentId(definition.id, 'id'));
  return runTransaction(async (tx) => {
    const stored = rewardFromSnapshot(await tx.get(ref));
    const given = Object.fromEntries(Object.entries(definition).filter(([, value]) => value !== undefined));
    const reward: RewardRecord = {
      ...(stored ?? { description: '', stock: null, active: true }),
      ...given,
    } as RewardRecord;
    tx.set(ref, rewardDocument(reward, !stored), { merge: true });
    return { reward, created: !stored };
  });
}

/** Active rewards, cheapest first (then by id). */
export async function activeRewards(): Promise<RewardView[]> {
  const snapshot = await rewardsCollection().where('active', '==', true).orderBy('cost').orderBy('__name__').get();
  return snapshot.docs.flatMap((doc) => {
    const reward = rewardFromSnapshot(doc);
    return reward ? [toRewardView(reward)] : [];
  });
}
