// @ts-check
// The Firestore floor of GET /user/{id}/history, as src/data/ledger.ts reads a page:
// the user's document (a user that does not exist is 404), then one query of the
// user's entries, newest first, ties by id (the index userId, createdAt desc), one
// more than the page to know whether another follows. Written out rather than
// called, like the other floors.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');

/**
 * User `userId`'s ledger entries in the order of their history.
 * @param {string} userId
 * @returns {import('firebase-admin/firestore').Query}
 */
export const historyQuery = (userId) =>
  db().collection('ledger').where('userId', '==', userId).orderBy('createdAt', 'desc').orderBy('__name__', 'desc');

/** The page size GET /user/{id}/history answers when asked for none. */
export const DEFAULT_HISTORY_PAGE = 20;

/**
 * A page of `userId`'s history, read: the first, or the one after entry `after`.
 * @param {string} userId
 * @param {number} [limit]
 * @param {import('firebase-admin/firestore').DocumentSnapshot} [after]
 */
export async function historyFloor(userId, limit = DEFAULT_HISTORY_PAGE, after) {
  const query = after ? historyQuery(userId).startAfter(after) : historyQuery(userId);
  // Together, as the endpoint reads them.
  const [user, page] = await Promise.all([db().collection('users').doc(userId).get(), query.limit(limit + 1).get()]);
  user.data();
  return page.docs.map((/** @type {any} */ doc) => doc.data());
}
