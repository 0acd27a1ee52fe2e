/**
 * Converts what older versions stored into the forms this version reads, so that no
 * code has to read an old form: `npm run admin -- migrate` (a dry run; `--apply`
 * writes). Each conversion pages through one collection in id order (flat memory)
 * and changes only what is still in an old form, so a second run finds nothing.
 */
import {
  FieldValue,
  Timestamp,
  type CollectionReference,
  type DocumentData,
  type DocumentSnapshot,
} from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { ledgerCollection } from '../data/ledger';
import {
  activePromotionsRef,
  promotionFromData,
  promotionsCollection,
  replaceShards,
  shardRefs,
} from '../data/promotions';
import { newPushTokenHolder, pushTokenHolderRef } from '../data/pushTokens';
import { newRequestRecord, requestRecordsCollection } from '../data/requestRecords';
import { voucherUsesCollection } from '../data/voucherUses';
import { newVoucherCodeEntry, redemptionsCollection, voucherCodesCollection } from '../data/redemptions';
import { transactionsCollection } from '../data/transactions';
import { uidsWithoutAccount } from '../adapters/identity';
import { earningsOf, isErasedProfile, isPoints, pointsByMonthOf, pointsModel, usersCollection } from '../data/users';
import { lookupBatches } from './erasure';
import { pages } from './ledgerBooks';

/** The 24-hour records of the idempotency scheme before keyed transaction ids. */
export const legacyIdempotencyCollection = () => db().collection('idempotency');
const LEGACY_RECORD_LIFETIME_MS = 24 * 60 * 60_000;

export interface MigrationReport {
  /** 24-hour idempotency records whose day has passed: nothing answers from them any more; deleted. */
  expiredIdempotencyRecords: number;
  /**
   * Records still within their 24 hours: kept. Their key's transaction has a random
   * id, and a keyed one would be a second transaction, so they cannot be converted:
   * this version must not serve before the last of them has expired.
   */
  liveIdempotencyRecords: number;
  /** When the last live record expires (ISO 8601), or null. */
  liveUntil: string | null;
  /** Users holding one day's `earnedToday`: merged into `earnedByDay` (the larger figure of the day), then removed. */
  earnedToday: number;
  /** Transactions recorded before `occurredAt` existed: given the time they were recorded, as they were read. */
  transactionsWithoutOccurredAt: number;
  /**
   * Users without the model of their points by month (points expiry): their balance counted as added in the
   * month of the migration, and the oldest month stored, so the expiry run finds them.
   */
  usersWithoutPointsByMonth: number;
  /** Voucher codes issued before codes had a lookup document (§12): given one, so partners find them. */
  voucherCodesIndexed: number;
  /**
   * Profiles from before `authAccount` (data/users.ts) whose Auth account exists:
   * marked, so that the users sweep erases them once their account is deleted.
   * Profiles without an account (seeded data) stay unmarked, never swept.
   */
  profilesMarkedWithAccount: number;
  /** Push tokens registered before tokens had a holder document (data/pushTokens.ts): given one. */
  pushTokensIndexed: number;
  /**
   * Promotions without every budget shard of their revision (data/promotions.ts): shards named by their
   * index alone (before shards were named by revision), or fewer than BUDGET_SHARDS (the constant raised).
   * Laid out anew, each index keeping what it gave.
   */
  promotionShardsRenamed: number;
  /** Active promotions missing from the one document of their terms that awards read (stored before it existed): added. */
  activePromotionsListed: number;
  /**
   * Ledger entries (adjustments) and redemptions that carried the service's own fields, which their user
   * reads: `submissionId` and `requestFingerprint` moved to requestRecords/{id}, a voucher's `use` (the
   * partner's key, its Idempotency-Key, the call's id) to its voucherUses/{id} document.
   */
  internalFieldsMoved: number;
}

export interface MigrationOptions {
  /** false: count only (the dry run). */
  apply: boolean;
  pageSize: number;
  now?: Date;
}

/** Runs every conversion, in turn; returns what was (or, in a dry run, would be) changed. */
export async function migrate({ apply, pageSize, now = new Date() }: MigrationOptions): Promise<MigrationReport> {
  return {
    ...(await retireIdempotencyRecords(apply, pageSize, now)),
    earnedToday: await mergeEarnedToday(apply, pageSize),
    transactionsWithoutOccurredAt: await stampOccurredAt(apply, pageSize),
    usersWithoutPointsByMonth: await stampPointsByMonth(apply, pageSize, now),
    voucherCodesIndexed: await indexVoucherCodes(apply, pageSize),
    profilesMarkedWithAccount: await markProfilesWithAccount(apply, pageSize),
    pushTokensIndexed: await indexPushTokens(apply, pageSize),
    promotionShardsRenamed: await renamePromotionShards(apply, pageSize),
    activePromotionsListed: await listActivePromotions(apply, pageSize),
    internalFieldsMoved:
      (await moveInternalFields(ledgerCollection(), apply, pageSize)) +
      (await moveInternalFields(redemptionsCollection(), apply, pageSize)),
  };
}

/** What older versions stored on a ledger entry or a redemption for the service alone. */
const INTERNAL_FIELDS = ['submissionId', 'requestFingerprint', 'use'] as const;

/**
 * Moves the service's own fields off each document of `collection` (ledger entries, redemptions: their
 * user reads them, contract §8) into server-only ones, a page at a time in one batch: the idempotency
 * record to requestRecords/{id} (data/requestRecords.ts), a voucher's use into its voucherUses/{id}
 * document, which the use created with it. Nothing writes these fields any more, and a moved document has
 * none, so a second run finds nothing.
 */
async function moveInternalFields(collection: CollectionReference, apply: boolean, pageSize: number) {
  let moved = 0;
  let batch = db().batch();
  let staged = 0;
  for await (const document of pages(collection, undefined, undefined, pageSize)) {
    if (INTERNAL_FIELDS.every((field) => document.get(field) === undefined)) continue;
    moved++;
    const submissionId: unknown = document.get('submissionId');
    if (typeof submissionId === 'string') {
      const requestFingerprint = (document.get('requestFingerprint') as string | undefined) ?? null;
      batch.set(requestRecordsCollection().doc(document.id), newRequestRecord({ submissionId, requestFingerprint }));
    }
    const use: unknown = document.get('use');
    // An update: the use's document was created with the use, and creating one now would tell the user again.
    if (use !== undefined) batch.update(voucherUsesCollection().doc(document.id), use as DocumentData);
    batch.update(document.ref, Object.fromEntries(INTERNAL_FIELDS.map((field) => [field, FieldValue.delete()])));
    if (++staged === pageSize) {
      if (apply) await batch.commit();
      [batch, staged] = [db().batch(), 0];
    }
  }
  if (apply && staged > 0) await batch.commit();
  return moved;
}

/** Each batch of unmarked profiles looked up in one call (at most 100), those with an account marked in one write. */
async function markProfilesWithAccount(apply: boolean, pageSize: number): Promise<number> {
  let marked = 0;
  const unmarked = (user: DocumentSnapshot) => user.get('authAccount') !== true && !isErasedProfile(user);
  for await (const batch of lookupBatches(pages(usersCollection(), undefined, undefined, pageSize), unmarked)) {
    const without = new Set(await uidsWithoutAccount(batch));
    const withAccount = batch.filter((uid) => !without.has(uid));
    marked += withAccount.length;
    if (!apply || withAccount.length === 0) continue;
    const write = db().batch();
    for (const uid of withAccount) write.update(usersCollection().doc(uid), { authAccount: true });
    await write.commit();
  }
  return marked;
}

/** When a legacy record stops answering: its `expireAt`, else a day after `createdAt` (neither: already). */
function expiryOf(record: DocumentSnapshot): number {
  const expireAt: unknown = record.get('expireAt');
  if (expireAt instanceof Timestamp) return expireAt.toMillis();
  const createdAt: unknown = record.get('createdAt');
  return createdAt instanceof Timestamp ? createdAt.toMillis() + LEGACY_RECORD_LIFETIME_MS : 0;
}

async function retireIdempotencyRecords(apply: boolean, pageSize: number, now: Date) {
  let expired = 0;
  let live = 0;
  let liveUntil = 0;
  const page: DocumentSnapshot[] = [];
  const deletePage = async () => {
    if (apply && page.length > 0) {
      const batch = db().batch();
      for (const record of page) batch.delete(record.ref);
      await batch.commit();
    }
    page.length = 0;
  };
  for await (const record of pages(legacyIdempotencyCollection(), undefined, undefined, pageSize)) {
    const expiry = expiryOf(record);
    if (expiry > now.getTime()) {
      live++;
      liveUntil = Math.max(liveUntil, expiry);
      continue;
    }
    expired++;
    page.push(record);
    if (page.length === pageSize) await deletePage();
  }
  await deletePage();
  return {
    expiredIdempotencyRecords: expired,
    liveIdempotencyRecords: live,
    liveUntil: live > 0 ? new Date(liveUntil).toISOString() : null,
  };
}

/** A user's `earnedByDay` with their `earnedToday` counted in, as the award read the two before. */
function earningsWithEarnedToday(user: DocumentSnapshot): Record<string, number> {
  const earned = earningsOf(user.data() ?? {});
  const { day, points } = (user.get('earnedToday') ?? {}) as { day?: unknown; points?: unknown };
  if (typeof day === 'string' && isPoints(points)) earned[day] = Math.max(earned[day] ?? 0, points);
  return earned;
}

/** One user at a time, in a transaction with its read: an award meanwhile is never overwritten. */
async function mergeEarnedToday(apply: boolean, pageSize: number): Promise<number> {
  let merged = 0;
  for await (const user of pages(usersCollection(), undefined, undefined, pageSize)) {
    if (user.get('earnedToday') === undefined) continue;
    merged++;
    if (!apply) continue;
    await runTransaction(async (tx) => {
      const fresh = await tx.get(user.ref);
      if (fresh.get('earnedToday') === undefined) return;
      tx.update(user.ref, { earnedByDay: earningsWithEarnedToday(fresh), earnedToday: FieldValue.delete() });
    });
  }
  return merged;
}

/** Each page's transactions without `occurredAt` in one batch: `createdAt`, else the document's own create time. */
async function stampOccurredAt(apply: boolean, pageSize: number): Promise<number> {
  let stamped = 0;
  let batch = db().batch();
  let staged = 0;
  for await (const transaction of pages(transactionsCollection(), undefined, undefined, pageSize)) {
    if (transaction.get('occurredAt') instanceof Timestamp) continue;
    stamped++;
    const createdAt: unknown = transaction.get('createdAt');
    const occurredAt = createdAt instanceof Timestamp ? createdAt : transaction.createTime!;
    batch.update(transaction.ref, { occurredAt });
    if (++staged === pageSize) {
      if (apply) await batch.commit();
      [batch, staged] = [db().batch(), 0];
    }
  }
  if (apply && staged > 0) await batch.commit();
  return stamped;
}

/** One user at a time, in a transaction with its read: a change of the balance meanwhile is counted in. */
async function stampPointsByMonth(apply: boolean, pageSize: number, now: Date): Promise<number> {
  let stamped = 0;
  for await (const user of pages(usersCollection(), undefined, undefined, pageSize)) {
    if (user.get('pointsByMonth') !== undefined) continue;
    stamped++;
    if (!apply) continue;
    await runTransaction(async (tx) => {
      const fresh = await tx.get(user.ref);
      if (!fresh.exists || fresh.get('pointsByMonth') !== undefined) return;
      tx.update(user.ref, pointsModel(pointsByMonthOf(fresh.data()!, now)));
    });
  }
  return stamped;
}

/**
 * A `voucherCodes/{code}` document for each voucher code issued before they existed,
 * a page at a time (one read of the page's codes). Created, never overwritten.
 */
async function indexVoucherCodes(apply: boolean, pageSize: number): Promise<number> {
  let indexed = 0;
  const page: DocumentSnapshot[] = [];
  const indexPage = async () => {
    const codes = page.map((redemption) => voucherCodesCollection().doc(redemption.get('code')));
    const entries = codes.length > 0 ? await db().getAll(...codes) : [];
    const missing = entries.flatMap((entry, i) => (entry.exists ? [] : [{ entry, redemption: page[i] }]));
    indexed += missing.length;
    if (apply && missing.length > 0) {
      const batch = db().batch();
      for (const { entry, redemption } of missing) batch.create(entry.ref, newVoucherCodeEntry(redemption.id));
      await batch.commit();
    }
    page.length = 0;
  };
  for await (const redemption of pages(redemptionsCollection(), undefined, undefined, pageSize)) {
    if (typeof redemption.get('code') !== 'string') continue;
    page.push(redemption);
    if (page.length === pageSize) await indexPage();
  }
  await indexPage();
  return indexed;
}

/**
 * A `pushTokens/{hash}` holder document for each user's token registered before they existed, a user at a time in a
 * transaction with its read (a registration meanwhile wins). Created, never overwritten.
 */
async function indexPushTokens(apply: boolean, pageSize: number): Promise<number> {
  let indexed = 0;
  for await (const user of pages(usersCollection(), undefined, undefined, pageSize)) {
    const token: unknown = user.get('pushToken');
    if (typeof token !== 'string' || (await pushTokenHolderRef(token).get()).exists) continue;
    indexed++;
    if (!apply) continue;
    await runTransaction(async (tx) => {
      const [fresh, holder] = await tx.getAll(user.ref, pushTokenHolderRef(token));
      if (fresh.get('pushToken') === token && !holder.exists) tx.create(holder.ref, newPushTokenHolder(user.id));
    });
  }
  return indexed;
}

/** Each promotion without all its revision's shards given them, in a transaction with its promotion as it is then. */
async function renamePromotionShards(apply: boolean, pageSize: number): Promise<number> {
  let renamed = 0;
  for await (const promotion of pages(promotionsCollection(), undefined, undefined, pageSize)) {
    // A page holds documents that exist.
    const shards = await db().getAll(...shardRefs(promotionFromData(promotion.id, promotion.data()!)));
    if (shards.every(({ exists }) => exists)) continue;
    renamed++;
    if (!apply) continue;
    await runTransaction(async (tx) => {
      const fresh = promotionFromData(promotion.id, (await tx.get(promotion.ref)).data()!);
      await replaceShards(tx, fresh, fresh.revision);
    });
  }
  return renamed;
}

/** The active promotions the document of active terms does not list, added in one transaction with it. */
async function listActivePromotions(apply: boolean, pageSize: number): Promise<number> {
  const listed = new Set(Object.keys((await activePromotionsRef().get()).get('promotions') ?? {}));
  const missing: DocumentSnapshot[] = [];
  for await (const promotion of pages(promotionsCollection(), undefined, undefined, pageSize)) {
    if (promotion.get('active') === true && !listed.has(promotion.id)) missing.push(promotion);
  }
  if (apply && missing.length > 0) {
    await runTransaction(async (tx) => {
      const [active, ...fresh] = await tx.getAll(activePromotionsRef(), ...missing.map(({ ref }) => ref));
      const promotions = { ...(active.get('promotions') as Record<string, DocumentData> | undefined) };
      for (const promotion of fresh.filter((snapshot) => snapshot.get('active') === true)) {
        const { creationId: _creationId, ...terms } = promotion.data()!;
        promotions[promotion.id] = terms;
      }
      tx.set(activePromotionsRef(), { promotions });
    });
  }
  return missing.length;
}
