import { Timestamp, type CollectionReference, type DocumentSnapshot, type Query } from 'firebase-admin/firestore';
import { decodeCursor, encodeCursor } from '../domain/cursor';
import { badRequest } from '../errors';

const cursorAfter = (item: DocumentSnapshot): string => {
  const time = item.get('createdAt') as Timestamp;
  return encodeCursor({ seconds: time.seconds, nanoseconds: time.nanoseconds, id: item.id });
};

/**
 * One page of a user's documents of `collection` (those with their `userId`; with
 * `userId` undefined, all of the collection is theirs: their notifications), newest
 * first by `createdAt`, ties (one commit time) broken by id, so the order is total.
 * The cursor is the position of the last document shown (its time and id): the next
 * page starts strictly after it in the index, so documents added meanwhile (all
 * newer) are never seen on later pages, and none that existed is skipped or
 * repeated; a page costs the same at any depth.
 */
export async function newestFirstPage<T>(
  collection: CollectionReference,
  userId: string | undefined,
  page: { limit: number; cursor: string | undefined },
  view: (snapshot: DocumentSnapshot) => T,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const theirs = userId === undefined ? collection : collection.where('userId', '==', userId);
  return newestFirstPageOf(collection, theirs, page, view);
}

/** The same paging over the documents of `collection` that `filtered` selects (its equality filters only). */
export async function newestFirstPageOf<T>(
  collection: CollectionReference,
  filtered: Query,
  page: { limit: number; cursor: string | undefined },
  view: (snapshot: DocumentSnapshot) => T,
): Promise<{ items: T[]; nextCursor: string | null }> {
  let query = filtered.orderBy('createdAt', 'desc').orderBy('__name__', 'desc');
  if (page.cursor !== undefined) {
    const position = decodeCursor(page.cursor);
    if (!position) throw badRequest('cursor is not one this endpoint gave out');
    query = query.startAfter(new Timestamp(position.seconds, position.nanoseconds), collection.doc(position.id));
  }
  const snapshot = await query.limit(page.limit + 1).get();
  const shown = snapshot.docs.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    items: shown.map(view),
    nextCursor: snapshot.docs.length > page.limit && last ? cursorAfter(last) : null,
  };
}
