/**
 * A person's data given back (contract §15): everything stored about them, as one
 * JSON document written out page by page, so that the function's memory holds one
 * page, however long their history.
 */
import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { findAuthAccount } from '../adapters/identity';
import { historyPage } from '../data/ledger';
import { notificationsPage } from '../data/notifications';
import { redemptionsPage } from '../data/redemptions';
import { rewardsConfigFromSnapshot, rewardsConfigRef } from '../data/rewardsConfig';
import { transactionsPage } from '../data/transactions';
import { ProfileNotFound, toUserView, userFromSnapshot, usersCollection } from '../data/users';
import type { UserExportView } from '../model/pointsViews';

/** Documents read per page: one page is what the export holds in memory. */
export const EXPORT_PAGE = 500;

type ReadPage = (
  userId: string,
  limit: number,
  cursor: string | undefined,
) => Promise<{ items: unknown[]; nextCursor: string | null }>;

/** The lists of the export, in the order written, each read newest first as the API pages it. */
const LISTS: readonly [keyof UserExportView, ReadPage][] = [
  ['ledger', historyPage],
  ['transactions', transactionsPage],
  ['redemptions', redemptionsPage],
  ['notifications', notificationsPage],
];

/**
 * The export of `userId`'s data as JSON text in chunks. The profile and the account
 * are read before this returns (a user without a profile is refused then, with
 * nothing written); the lists are read as the chunks are taken.
 */
export async function exportUser(userId: string): Promise<AsyncIterable<string>> {
  const [[userSnap, rewardsSnap], account] = await Promise.all([
    db().getAll(usersCollection().doc(userId), rewardsConfigRef()),
    findAuthAccount(userId),
  ]);
  const user = userFromSnapshot(userSnap);
  if (!user) throw new ProfileNotFound(userId);
  const createdAt: unknown = userSnap.get('createdAt');
  const head: Omit<UserExportView, 'ledger' | 'transactions' | 'redemptions' | 'notifications'> = {
    success: true,
    exportedAt: new Date().toISOString(),
    profile: {
      ...toUserView(user, rewardsConfigFromSnapshot(rewardsSnap)),
      createdAt: (createdAt instanceof Timestamp ? createdAt.toDate() : new Date(0)).toISOString(),
      earnedByDay: user.earnedByDay,
    },
    account: account ? { email: account.email ?? null, displayName: account.displayName ?? null } : null,
  };
  return exportChunks(userId, head);
}

async function* exportChunks(userId: string, head: object): AsyncGenerator<string> {
  // The head's closing brace is left off: the lists follow as its further fields.
  yield JSON.stringify(head).slice(0, -1);
  for (const [name, readPage] of LISTS) {
    yield `,${JSON.stringify(name)}:[`;
    let cursor: string | undefined;
    let first = true;
    do {
      const page = await readPage(userId, EXPORT_PAGE, cursor);
      if (page.items.length > 0) {
        yield `${first ? '' : ','}${page.items.map((item) => JSON.stringify(item)).join(',')}`;
        first = false;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    yield ']';
  }
  yield '}';
}
