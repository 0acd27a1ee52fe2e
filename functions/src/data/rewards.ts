/**
 * The rewards catalog (`rewards/{rewardId}`): what points buy. Not to be confused with
 * domain/rewards.ts, the points per item and the ranks (config/rewards).
 */
import { randomUUID } from 'node:crypto';
import { FieldPath, FieldValue, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { assertDocumentId } from '../domain/ids';
import { invalidRewardFields, type RewardDefinition } from '../domain/redemption';
import { badRequest } from '../errors';
import { logWarn } from '../log';
import { partnersCollection } from './partners';
import type { AdminRewardView, RewardView } from '../model/pointsViews';
import { DEFAULT_VOUCHER_VALID_DAYS } from '../model/limits';
import type { RewardKind } from '../model/vocabulary';

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
  /** The partner who honours its vouchers; null: any partner (§12). */
  partnerId: string | null;
  /** Days a voucher is honoured after it is issued. */
  validDays: number;
}

/** A reward as the catalog shows it. */
export type { RewardView };

/** The stored fields as they are, checked or not. */
const storedReward = (id: string, data: DocumentData): RewardRecord => ({
  id,
  name: data.name,
  description: data.description ?? '',
  cost: data.cost,
  kind: data.kind,
  stock: data.stock ?? null,
  active: data.active === true,
  // Rewards stored before vouchers had a partner and a life: any partner, the default life.
  partnerId: data.partnerId ?? null,
  validDays: data.validDays ?? DEFAULT_VOUCHER_VALID_DAYS,
});

/** A stored reward, or why it cannot be used (logged: someone has to mend it). */
function checkedReward(id: string, data: DocumentData): RewardRecord | { invalidFields: string[] } {
  const reward = storedReward(id, data);
  const invalidFields = invalidRewardFields(reward);
  if (invalidFields.length === 0) return reward;
  logWarn('reward_document_invalid', { rewardId: id, invalidFields });
  return { invalidFields };
}

/** The reward, or undefined when there is none; one broken by hand fails the request (500), never spends. */
export function rewardFromSnapshot(snapshot: DocumentSnapshot): RewardRecord | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  const reward = checkedReward(snapshot.id, data);
  if ('invalidFields' in reward) {
    throw new Error(`rewards/${snapshot.id} has missing or malformed fields: ${reward.invalidFields.join(', ')}`);
  }
  return reward;
}

export const toRewardView = ({
  active: _active,
  partnerId: _partnerId,
  validDays: _validDays,
  ...reward
}: RewardRecord): RewardView => ({
  ...reward,
  available: reward.stock !== 0,
});

/** A reward as an operator sees it: also whether it is offered. */
export type { AdminRewardView };

export const toAdminRewardView = (reward: RewardRecord): AdminRewardView => ({
  ...toRewardView(reward),
  active: reward.active,
  partnerId: reward.partnerId,
  validDays: reward.validDays,
});

/**
 * A rewards/{id} document as written by a create (with the id of the call that
 * creates it) or an update; the one place one is written out.
 */
const rewardDocument = (reward: RewardRecord, creationId?: string): DocumentData => ({
  name: reward.name,
  description: reward.description,
  cost: reward.cost,
  kind: reward.kind,
  stock: reward.stock,
  active: reward.active,
  partnerId: reward.partnerId,
  validDays: reward.validDays,
  updatedAt: FieldValue.serverTimestamp(),
  ...(creationId !== undefined && { createdAt: FieldValue.serverTimestamp(), creationId }),
});

const NULL_MEANS_SOMETHING = new Set(['stock', 'partnerId']);

/**
 * Creates the reward (description "", unlimited stock, active unless told) or updates
 * it: fields not given are kept. One transaction with the read, so a concurrent
 * redemption's stock change is never overwritten by a stale one. A reward broken by
 * hand is mended by an update that gives the broken fields (400 names them otherwise).
 * A create is answered as one also when its commit's answer was lost and the
 * transaction ran again (it then finds its own `creationId`).
 */
export async function upsertReward(definition: RewardDefinition): Promise<{ reward: RewardRecord; created: boolean }> {
  const ref = rewardsCollection().doc(assertDocumentId(definition.id, 'id'));
  // Stored with a create: the body run again after its commit's answer was lost finds its own create.
  const creationId = randomUUID();
  return runTransaction(async (tx) => {
    const snapshot = await tx.get(ref);
    const stored = snapshot.exists ? storedReward(ref.id, snapshot.data()!) : undefined;
    // null is "not given" but for the stock, where it means unlimited, and the partner, where it means any.
    const given = Object.fromEntries(
      Object.entries(definition).filter(
        ([field, value]) => value !== undefined && (value !== null || NULL_MEANS_SOMETHING.has(field)),
      ),
    );
    const reward: RewardRecord = {
      ...(stored ?? {
        description: '',
        stock: null,
        active: true,
        partnerId: null,
        validDays: DEFAULT_VOUCHER_VALID_DAYS,
      }),
      ...given,
    } as RewardRecord;
    if (
      typeof given.partnerId === 'string' &&
      !(await tx.get(partnersCollection().doc(assertDocumentId(given.partnerId, 'partnerId')))).exists
    ) {
      throw badRequest(`partnerId ${given.partnerId} names no partner`);
    }
    const invalidFields = invalidRewardFields(reward);
    if (invalidFields.length > 0) {
      throw badRequest(
        `Reward ${ref.id} has broken stored fields; give them in this request: ${invalidFields.join(', ')}`,
      );
    }
    tx.set(ref, rewardDocument(reward, stored ? undefined : creationId), { merge: true });
    return { reward, created: !stored || snapshot.get('creationId') === creationId };
  });
}

/** Active rewards, cheapest first (then by id). */
export async function activeRewards(): Promise<RewardView[]> {
  const snapshot = await rewardsCollection().where('active', '==', true).orderBy('cost').orderBy('__name__').get();
  return snapshot.docs.flatMap((doc) => {
    const reward = checkedReward(doc.id, doc.data());
    return 'invalidFields' in reward ? [] : [toRewardView(reward)];
  });
}

/** A stored reward that cannot be used (broken by hand), and which of its fields are why. */
export interface InvalidReward {
  id: string;
  invalidFields: string[];
}

/**
 * Every stored reward, active or not, by id (the one order that also reads documents
 * lacking a field); those broken by hand apart, logged, so that an operator sees them
 * and mends them with an update that gives the broken fields.
 */
export async function wholeCatalog(): Promise<{ rewards: RewardRecord[]; invalid: InvalidReward[] }> {
  const snapshot = await rewardsCollection().orderBy(FieldPath.documentId()).get();
  const rewards: RewardRecord[] = [];
  const invalid: InvalidReward[] = [];
  for (const doc of snapshot.docs) {
    const reward = checkedReward(doc.id, doc.data());
    if ('invalidFields' in reward) invalid.push({ id: doc.id, ...reward });
    else rewards.push(reward);
  }
  return { rewards, invalid };
}
