/**
 * `effectsPending: true` marks a transaction, redemption, alert or expiry reminder whose side effects
 * (counters, notification, push) are not all applied yet: written with the document,
 * deleted in the same write that records the effects' final state. On an erased
 * profile it marks an erasure not finished yet: a trigger that read the user before
 * it may still write a notification (services/erasure.ts). The effects sweep
 * (services/pendingEffects.ts) finds what no trigger finished by an equality on it and
 * a range on the document's time (an index each, firestore.indexes.json), never by
 * scanning a collection.
 */
import { FieldPath, FieldValue, Timestamp, type CollectionReference } from 'firebase-admin/firestore';

export const EFFECTS_PENDING = 'effectsPending';

/** Spread into a document as first stored. */
export const effectsPending = { [EFFECTS_PENDING]: true } as const;

/** Spread into the update that records the effects' final state. */
export const effectsSettled = () => ({ [EFFECTS_PENDING]: FieldValue.delete() });

/** A pending document's place in the sweep's order: its time, then its id. */
export interface PendingPosition {
  at: Timestamp;
  id: string;
}

/**
 * Up to `limit` documents still pending, recorded (`timeField`) at or before `cutoff`,
 * oldest first (then by id), after `after` when given: where the sweep's last run stopped.
 */
export async function pendingSince(
  collection: CollectionReference,
  timeField: string,
  cutoff: Date,
  limit: number,
  after?: PendingPosition,
): Promise<PendingPosition[]> {
  const query = collection
    .where(EFFECTS_PENDING, '==', true)
    .where(timeField, '<=', Timestamp.fromDate(cutoff))
    .orderBy(timeField)
    .orderBy(FieldPath.documentId());
  const snapshot = await (after ? query.startAfter(after.at, after.id) : query).limit(limit).select(timeField).get();
  return snapshot.docs.map((doc) => ({ id: doc.id, at: doc.get(timeField) as Timestamp }));
}
