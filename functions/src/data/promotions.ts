/**
 * Promotions (contract §16): `promotions/{id}`, an operator's definition, and its
 * budget shards `promotions/{id}/budgetShards/{0..BUDGET_SHARDS-1}`, each an
 * `allotment` of the budget (null: no limit) and the points `given` from it. A
 * promotion's `pointsGiven` is the sum of its shards' `given`; how awards take from
 * them is services/promotionBudgets.ts's (docs/promotions.md).
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type DocumentData, type DocumentReference, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { assertDocumentId } from '../domain/ids';
import { openingHoursProblem } from '../domain/openingHours';
import type { Promotion } from '../domain/promotions';
import { badRequest } from '../errors';
import type { AdminPromotionView, PromotionBody, PublicPromotionView } from '../model/promotionViews';

export const promotionsCollection = () => db().collection('promotions');

/**
 * How many documents a promotion's count is spread over: each award writes one
 * (docs/promotions.md argues the throughput), a budgeted award reads them all.
 */
export const BUDGET_SHARDS = 16;

export const shardRefs = (promotionId: string) =>
  Array.from({ length: BUDGET_SHARDS }, (_, index) => shardRef(promotionId, index));

export const shardRef = (promotionId: string, index: number) =>
  promotionsCollection().doc(promotionId).collection('budgetShards').doc(String(index));

/** A promotion as stored, with the revision its shards carry (every change writes a new one to all of them). */
export interface StoredPromotion extends Promotion {
  revision: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A shard as read: a missing one gives nothing (every change writes them all). */
export interface BudgetShard {
  revision: string | null;
  allotment: number | null;
  given: number;
}

export function shardFromSnapshot(snapshot: DocumentSnapshot): BudgetShard {
  const data = snapshot.data();
  if (!data) return { revision: null, allotment: 0, given: 0 };
  return { revision: data.revision ?? null, allotment: data.allotment ?? null, given: data.given ?? 0 };
}

const dateOrNull = (value: unknown): Date | null => (value instanceof Timestamp ? value.toDate() : null);

export function promotionFromData(id: string, data: DocumentData): StoredPromotion {
  return {
    id,
    name: data.name,
    active: data.active === true,
    startsAt: dateOrNull(data.startsAt),
    endsAt: dateOrNull(data.endsAt),
    hours: data.hours ?? null,
    kioskIds: data.kioskIds ?? null,
    minItems: data.minItems ?? null,
    multiplier: data.multiplier ?? null,
    bonusPoints: data.bonusPoints ?? null,
    budgetPoints: data.budgetPoints ?? null,
    revision: data.revision,
    createdAt: dateOrNull(data.createdAt) ?? new Date(0),
    updatedAt: dateOrNull(data.updatedAt) ?? new Date(0),
  };
}

/** The active promotions, read fresh on every award (a change applies to the next deposit: no cache). */
export async function activePromotions(): Promise<StoredPromotion[]> {
  const snapshot = await promotionsCollection().where('active', '==', true).get();
  return snapshot.docs.map((doc) => promotionFromData(doc.id, doc.data()));
}

const WHERE_HOURS_ARE_CHECKED = { latitude: 0, longitude: 0 };

/**
 * The promotion a body defines (every omitted field at its default), or a 400 naming
 * the field: what the schema cannot say (exactly one of multiplier and bonusPoints, one
 * decimal, the window's order, the hours' syntax).
 */
export function promotionFromBody(body: PromotionBody): Promotion {
  const multiplier = body.multiplier ?? null;
  const bonusPoints = body.bonusPoints ?? null;
  if (multiplier === null && bonusPoints === null) {
    throw badRequest('multiplier or bonusPoints is required: exactly one of them');
  }
  if (multiplier !== null && bonusPoints !== null) {
    throw badRequest('bonusPoints must be null when multiplier is given: exactly one of them');
  }
  if (multiplier !== null && Math.abs(multiplier * 10 - Math.round(multiplier * 10)) > 1e-9) {
    throw badRequest('multiplier must have at most one decimal, e.g. 1.5');
  }
  const startsAt = body.startsAt ? new Date(body.startsAt) : null;
  const endsAt = body.endsAt ? new Date(body.endsAt) : null;
  if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime()) throw badRequest('endsAt must be after startsAt');
  const hours = body.hours ?? null;
  const problem = hours === null ? undefined : openingHoursProblem(hours, WHERE_HOURS_ARE_CHECKED);
  if (problem !== undefined) throw badRequest(`hours is not valid OpenStreetMap opening_hours syntax: ${problem}`);
  const kioskIds = body.kioskIds ?? null;
  kioskIds?.forEach((kioskId, index) => assertDocumentId(kioskId, `kioskIds.${index}`));
  return {
    id: assertDocumentId(body.id, 'id'),
    name: body.name,
    active: body.active ?? true,
    startsAt,
    endsAt,
    hours,
    kioskIds: kioskIds && [...new Set(kioskIds)],
    minItems: body.minItems ?? null,
    multiplier: multiplier === null ? null : Math.round(multiplier * 10) / 10,
    bonusPoints,
    budgetPoints: body.budgetPoints ?? null,
  };
}

/** Each shard's allotment: what it gave, plus its even share of what the budget has left (null: no limit). */
export function allotments(budgetPoints: number | null, given: number[]): (number | null)[] {
  if (budgetPoints === null) return given.map(() => null);
  const left = Math.max(0, budgetPoints - given.reduce((sum, points) => sum + points, 0));
  const share = Math.floor(left / given.length);
  return given.map((points, index) => points + share + (index < left % given.length ? 1 : 0));
}

/**
 * Creates the promotion (201) or replaces it (200, keeping `createdAt` and what it
 * gave). One transaction with its shards: each gets its allotment of the new budget and
 * the new revision, so an award staged on the old terms fails its precondition on the
 * shard and reads them again. Run again after its commit's answer was lost, it finds
 * its own `creationId`.
 */
export async function upsertPromotion(
  promotion: Promotion,
): Promise<{ promotion: AdminPromotionView; created: boolean }> {
  const ref = promotionsCollection().doc(promotion.id);
  const creationId = randomUUID();
  const revision = randomUUID();
  return runTransaction(async (tx) => {
    const now = new Date();
    const [snapshot, ...shardSnaps] = await tx.getAll(ref, ...shardRefs(promotion.id));
    const created = !snapshot.exists || snapshot.get('creationId') === creationId;
    const given = shardSnaps.map((shard) => shardFromSnapshot(shard).given);
    const shares = allotments(promotion.budgetPoints, given);
    const { id: _id, startsAt, endsAt, ...fields } = promotion;
    tx.set(ref, {
      ...fields,
      startsAt: startsAt && Timestamp.fromDate(startsAt),
      endsAt: endsAt && Timestamp.fromDate(endsAt),
      revision,
      updatedAt: Timestamp.fromDate(now),
      createdAt: snapshot.exists ? snapshot.get('createdAt') : Timestamp.fromDate(now),
      creationId: snapshot.exists ? snapshot.get('creationId') : creationId,
    });
    shardSnaps.forEach((shard, index) =>
      tx.set(shard.ref, { revision, allotment: shares[index], given: given[index] }),
    );
    return {
      created,
      promotion: adminView(
        {
          ...promotion,
          revision,
          createdAt: snapshot.exists ? (dateOrNull(snapshot.get('createdAt')) ?? now) : now,
          updatedAt: now,
        },
        given.reduce((sum, points) => sum + points, 0),
      ),
    };
  });
}

export const publicView = (promotion: Promotion): PublicPromotionView => ({
  id: promotion.id,
  name: promotion.name,
  multiplier: promotion.multiplier,
  bonusPoints: promotion.bonusPoints,
  minItems: promotion.minItems,
  startsAt: promotion.startsAt?.toISOString() ?? null,
  endsAt: promotion.endsAt?.toISOString() ?? null,
  hours: promotion.hours,
  kioskIds: promotion.kioskIds,
});

export const adminView = (promotion: StoredPromotion, pointsGiven: number): AdminPromotionView => ({
  ...publicView(promotion),
  active: promotion.active,
  budgetPoints: promotion.budgetPoints,
  pointsGiven,
  createdAt: promotion.createdAt.toISOString(),
  updatedAt: promotion.updatedAt.toISOString(),
});

/** What each promotion has given: the sum of its shards, read together in one round trip. */
export async function pointsGivenBy(
  promotionIds: string[],
  read = (refs: DocumentReference[]) => db().getAll(...refs),
): Promise<Map<string, number>> {
  const given = new Map(promotionIds.map((id) => [id, 0]));
  if (promotionIds.length === 0) return given;
  const snaps = await read(promotionIds.flatMap(shardRefs));
  for (const snap of snaps) {
    const promotionId = snap.ref.parent.parent!.id;
    given.set(promotionId, given.get(promotionId)! + shardFromSnapshot(snap).given);
  }
  return given;
}

/** Every promotion with what it gave, by id (GET /admin/promotions). */
export async function allPromotions(): Promise<AdminPromotionView[]> {
  const docs = (await promotionsCollection().get()).docs;
  const promotions = docs.map((doc) => promotionFromData(doc.id, doc.data()));
  const given = await pointsGivenBy(promotions.map(({ id }) => id));
  return promotions.map((promotion) => adminView(promotion, given.get(promotion.id)!));
}
