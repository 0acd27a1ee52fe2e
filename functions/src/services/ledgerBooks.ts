/**
 * The ledger's books: opening balances for users from before the ledger, and what they
 * and the audit (services/audit.ts) read with: every document of a collection page by
 * page, in id order, so memory does not grow with the data.
 */
import { FieldPath, type CollectionReference, type DocumentSnapshot } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { usersCollection } from '../data/users';

const PAGE = 500;
export const intOf = (value: unknown): number => (Number.isSafeInteger(value) ? (value as number) : 0);

/** Called after each page the audit reads, with the collection's id: lets a test interleave writes honestly. */
export type PageHook = (collectionId: string) => Promise<void>;

/**
 * Every document of `query` (ordered by `field`, then id), `size` at a time, so memory does not grow with the data;
 * without `field`, from after the document id `afterId` when given (a sweep continuing where it stopped).
 */
export async function* pages(
  query: CollectionReference,
  field?: string,
  onPage?: PageHook,
  size = PAGE,
  afterId?: string,
): AsyncGenerator<DocumentSnapshot> {
  const ordered = field ? query.orderBy(field).orderBy(FieldPath.documentId()) : query.orderBy(FieldPath.documentId());
  let last: DocumentSnapshot | undefined;
  for (;;) {
    const start = last
      ? ordered.startAfter(last)
      : afterId !== undefined && !field
        ? ordered.startAfter(afterId)
        : ordered;
    const page = await start.limit(size).get();
    await onPage?.(query.id);
    yield* page.docs;
    if (page.docs.length < size) return;
    last = page.docs.at(-1);
  }
}

export interface Sums {
  current: number;
  total: number;
  entries: number;
}

/** One user's entries summed; `earn` and `adjust` count toward what they ever earned. */
export function addEntry(sums: Sums, entry: DocumentSnapshot): void {
  const points = intOf(entry.get('points'));
  sums.current += points;
  if (entry.get('kind') === 'earn' || entry.get('kind') === 'adjust') sums.total += points;
  sums.entries++;
}

/**
 * Gives a user whose balance is not (fully) in the ledger the entries that explain
 * it, once: an `adjust` of what they earned outside the ledger and, if some of it was
 * spent then, a `redeem` of that. Under ids derived from the user, created only when
 * absent, in one transaction with the read of the user and their entries: running
 * it again, or alongside awards, never opens a balance twice.
 */
export async function openBalance(userId: string, by: string): Promise<boolean> {
  const userRef = usersCollection().doc(userId);
  const earnedRef = ledgerCollection().doc(`opening-earned-${userId}`);
  const spentRef = ledgerCollection().doc(`opening-spent-${userId}`);
  return runTransaction(async (tx) => {
    const [user, opened] = await tx.getAll(userRef, earnedRef);
    if (!user.exists || opened.exists) return false;
    const sums: Sums = { current: 0, total: 0, entries: 0 };
    for (const entry of (await tx.get(ledgerCollection().where('userId', '==', userId))).docs) addEntry(sums, entry);
    const earned = intOf(user.get('totalPoints')) - sums.total;
    const spent = earned - (intOf(user.get('currentPoints')) - sums.current);
    if (earned === 0 && spent === 0) return false;
    const reason = 'opening balance: points from before the ledger';
    const afterEarned = sums.current + earned;
    tx.create(
      earnedRef,
      newLedgerEntry({ userId, kind: 'adjust', points: earned, balanceAfter: afterEarned, reason, by }),
    );
    if (spent !== 0) {
      tx.create(
        spentRef,
        newLedgerEntry({
          userId,
          kind: 'redeem',
          points: -spent,
          balanceAfter: afterEarned - spent,
          reason: 'opening balance: points spent before the ledger',
          by,
        }),
      );
    }
    return true;
  });
}

/** Opening balances for every user that needs one; returns how many were opened. */
export async function backfillLedger(by: string): Promise<{ users: number; opened: number }> {
  let users = 0;
  let opened = 0;
  for await (const user of pages(usersCollection())) {
    users++;
    if (await openBalance(user.id, by)) opened++;
  }
  return { users, opened };
}
