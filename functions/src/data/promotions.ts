/**
 * Promotions (contract §16): `promotions/{id}`, an operator's definition, and its
 * budget shards `promotions/{id}/budgetShards/{revision}_{0..BUDGET_SHARDS-1}`, each an
 * `allotment` of the budget (null: no limit) and the points `given` from it. Every
 * change replaces the set with its revision's, so a write staged on an older revision's
 * shard fails. A promotion's `pointsGiven` is the sum of its shards' `given`; how awards
 * take from them is services/promotionBudgets.ts's (docs/promotions.md).
 */
import { randomUUID } from 'node:crypto';
import {
  Timestamp,
  type DocumentData,
  type DocumentReference,
  type DocumentSnapshot,
  type Query,
  type QuerySnapshot,
  type Transaction,
} from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { assertDocumentId } from '../domain/ids';
import { createKeyedQueue } from '../domain/keyedQueue';
import { openingHoursProblem } from '../domain/openingHours';
import type { Promotion } from '../domain/promotions';
import { badRequest, conflict } from '../errors';
import { MAX_ACTIVE_PROMOTIONS } from '../model/limits';
import type { AdminPromotionView, PromotionBody, PublicPromotionView } from '../model/promotionViews';

export const promotionsCollection = () => db().collection('promotions');

/**
 * The terms of every active promotion, by id, in one document: every award reads it with
 * its other documents (one document read, no query: a change applies to the next deposit
 * at no extra round trip), and every change writes it in the change's transaction.
 */
export const activePromotionsRef = () => db().doc('config/activePromotions');

/** The active promotions as `activePromotionsRef` holds them, by id. */
export const activeFromSnapshot = (snapshot: DocumentSnapshot): StoredPromotion[] =>
  Object.entries((snapshot.get('promotions') ?? {}) as Record<string, DocumentData>)
    .map(([id, data]) => promotionFromData(id, data))
    .sort((a, b) => (a.id < b.id ? -1 : 1));

/**
 * How many documents a promotion's count is spread over: each award writes one
 * (docs/promotions.md argues the throughput).
 */
export const BUDGET_SHARDS = 16;

/** Every shard a promotion has, of its current revision (a change replaces the others in its commit). */
export const budgetShardsOf = (promotionId: string) =>
  promotionsCollection().doc(promotionId).collection('budgetShards');

export const shardRef = ({ id, revision }: Pick<StoredPromotion, 'id' | 'revision'>, index: number) =>
  budgetShardsOf(id).doc(`${revision}_${index}`);

export const shardRefs = (promotion: Pick<StoredPromotion, 'id' | 'revision'>) =>
  Array.from({ length: BUDGET_SHARDS }, (_, index) => shardRef(promotion, index));

/** A promotion as stored, with the revision that names its shards (every change replaces them). */
export interface StoredPromotion extends Promotion {
  revision: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A shard as read. */
export interface BudgetShard {
  allotment: number | null;
  given: number;
}

export const shardFromSnapshot = (snapshot: DocumentSnapshot): BudgetShard => ({
  allotment: snapshot.get('allotment') ?? null,
  given: snapshot.get('given') ?? 0,
});

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

/** The active promotions, read fresh (a change applies to the next deposit: no cache). */
export async function activePromotions(): Promise<StoredPromotion[]> {
  return activeFromSnapshot(await activePromotionsRef().get());
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
 * gave). One transaction with its shards: the new revision's replace the old ones, each
 * with what its index gave and its allotment of the new budget, so an award staged on
 * the old terms fails (its shard is gone) and reads them again. Run again after its
 * commit's answer was lost, it finds its own `creationId`.
 */
export async function upsertPromotion(
  promotion: Promotion,
): Promise<{ promotion: AdminPromotionView; created: boolean }> {
  const ref = promotionsCollection().doc(promotion.id);
  const creationId = randomUUID();
  const revision = randomUUID();
  return oneChangeAtATime('activePromotions', () => upsertIn(ref, promotion, { creationId, revision }));
}

/**
 * Changes of this instance, one at a time: each writes the one document of active terms,
 * which the emulator's transactions contend on badly (twenty at once ran past the
 * contention deadline). Across instances the transaction decides, as always.
 */
const oneChangeAtATime = createKeyedQueue();

function upsertIn(
  ref: DocumentReference,
  promotion: Promotion,
  { creationId, revision }: { creationId: string; revision: string },
): Promise<{ promotion: AdminPromotionView; created: boolean }> {
  return runTransaction(async (tx) => {
    const now = new Date();
    const [snapshot, active] = await tx.getAll(ref, activePromotionsRef());
    const pointsGiven = await replaceShards(tx, { ...promotion, revision }, snapshot.get('revision'));
    const created = !snapshot.exists || snapshot.get('creationId') === creationId;
    const { id: _id, startsAt, endsAt, ...fields } = promotion;
    const terms = {
      ...fields,
      startsAt: startsAt && Timestamp.fromDate(startsAt),
      endsAt: endsAt && Timestamp.fromDate(endsAt),
      revision,
      updatedAt: Timestamp.fromDate(now),
      createdAt: snapshot.exists ? snapshot.get('createdAt') : Timestamp.fromDate(now),
    };
    tx.set(ref, { ...terms, creationId: snapshot.exists ? snapshot.get('creationId') : creationId });
    const { [promotion.id]: _replaced, ...others } = (active.get('promotions') ?? {}) as Record<string, DocumentData>;
    if (promotion.active && Object.keys(others).length >= MAX_ACTIVE_PROMOTIONS) {
      throw conflict(
        `At most ${MAX_ACTIVE_PROMOTIONS} promotions may be active at once: deactivate one first`,
        'too-many-promotions',
      );
    }
    tx.set(activePromotionsRef(), { promotions: promotion.active ? { ...others, [promotion.id]: terms } : others });
    return {
      created,
      promotion: adminView(
        {
          ...promotion,
          revision,
          createdAt: snapshot.exists ? (dateOrNull(snapshot.get('createdAt')) ?? now) : now,
          updatedAt: now,
        },
        pointsGiven,
      ),
    };
  });
}

/**
 * Stages `promotion`'s shards of its revision in place of every shard it has: each
 * keeps what its index gave (an index read from the id's tail: the first layout named
 * shards by index alone) and gets its allotment of the budget. Returns what they gave.
 * The shards are found by a query outside `tx` (the emulator serialises transactions
 * that query) and read by name in it, with those of `previousRevision` (what `tx` read
 * on the promotion): every change of the set writes the promotion too, so none is missed.
 */
export async function replaceShards(
  tx: Transaction,
  promotion: Pick<StoredPromotion, 'id' | 'revision' | 'budgetPoints'>,
  previousRevision: string | undefined,
): Promise<number> {
  const found = (await budgetShardsOf(promotion.id).select().get()).docs.map(({ ref }) => ref);
  const previous = previousRevision === undefined ? [] : shardRefs({ id: promotion.id, revision: previousRevision });
  const paths = new Set(found.map(({ path }) => path));
  const named = [...found, ...previous.filter(({ path }) => !paths.has(path))];
  const shards = named.length === 0 ? [] : (await tx.getAll(...named)).filter(({ exists }) => exists);
  const given = Array.from({ length: BUDGET_SHARDS }, () => 0);
  for (const shard of shards) {
    const index = Number(shard.id.slice(shard.id.lastIndexOf('_') + 1));
    // A shard named otherwise (written by hand) still counts: what it gave is never lost.
    given[Number.isInteger(index) && index >= 0 && index < BUDGET_SHARDS ? index : 0] += shardFromSnapshot(shard).given;
  }
  const shares = allotments(promotion.budgetPoints, given);
  const kept = new Set(shardRefs(promotion).map(({ path }) => path));
  for (const shard of shards) if (!kept.has(shard.ref.path)) tx.delete(shard.ref);
  given.forEach((points, index) => tx.set(shardRef(promotion, index), { allotment: shares[index], given: points }));
  return given.reduce((sum, points) => sum + points, 0);
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

/**
 * What each promotion has given: the sum of its shards, each promotion's read in one
 * query (a consistent set: a change replaces them in one commit), side by side.
 */
export async function pointsGivenBy(
  promotionIds: string[],
  get = (query: Query): Promise<QuerySnapshot> => query.get(),
): Promise<Map<string, number>> {
  const sums = await Promise.all(
    promotionIds.map(async (promotionId) => {
      const shards = await get(budgetShardsOf(promotionId));
      return shards.docs.reduce((sum, shard) => sum + shardFromSnapshot(shard).given, 0);
    }),
  );
  return new Map(promotionIds.map((promotionId, index) => [promotionId, sums[index]]));
}

/** Every promotion with what it gave, by id (GET /admin/promotions). */
export async function allPromotions(): Promise<AdminPromotionView[]> {
  const docs = (await promotionsCollection().get()).docs;
  const promotions = docs.map((doc) => promotionFromData(doc.id, doc.data()));
  const given = await pointsGivenBy(promotions.map(({ id }) => id));
  return promotions.map((promotion) => adminView(promotion, given.get(promotion.id)!));
}
