/**
 * The audit of the books: every balance proved from its entries, the entries from their
 * sources (transactions, redemptions, erasures; the rules: services/auditChecks.ts) and
 * every kiosk counter from its transactions. It reads page by page, in id order (merge
 * joins), so its memory does not grow with the data.
 */
import type { CollectionReference, DocumentSnapshot, Timestamp } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { kiosksCollection } from '../data/kiosks';
import { ledgerCollection } from '../data/ledger';
import { redemptionsCollection } from '../data/redemptions';
import { transactionsCollection } from '../data/transactions';
import { usersCollection } from '../data/users';
import { differencesOf, type UserBooks } from './auditChecks';
import { intOf, pages, type PageHook } from './ledgerBooks';
import { PromotionTally } from './promotionAudit';

/** Firestore orders strings, ids included, by their UTF-8 bytes (not by UTF-16 code units as `<` does). */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
export interface AuditReport {
  users: number;
  kiosks: number;
  entries: number;
  transactions: number;
  differences: string[];
}

/** One owner's documents (a user's or a kiosk's), each stream's group under its name. */
interface Joined<Name extends string> {
  ownerId: string;
  owner?: DocumentSnapshot;
  members: Record<Name, DocumentSnapshot[]>;
}

/**
 * Walks id-ordered streams side by side: `owners` (users or kiosks) and, by name, the
 * streams of documents that belong to them (each ordered by its owner's id), yielding
 * one owner at a time with its documents from every stream: a merge join in flat memory.
 */
async function* joined<Name extends string>(
  owners: AsyncGenerator<DocumentSnapshot>,
  streams: Record<Name, { docs: AsyncGenerator<DocumentSnapshot>; ownerOf: (member: DocumentSnapshot) => string }>,
): AsyncGenerator<Joined<Name>> {
  const names = Object.keys(streams) as Name[];
  let owner = await owners.next();
  const heads = new Map<Name, IteratorResult<DocumentSnapshot>>();
  for (const name of names) heads.set(name, await streams[name].docs.next());
  const ownerIdOf = (name: Name): string | undefined => {
    const head = heads.get(name)!;
    return head.done ? undefined : streams[name].ownerOf(head.value);
  };
  for (;;) {
    const candidates = [owner.done ? undefined : owner.value.id, ...names.map(ownerIdOf)].filter(
      (id): id is string => id !== undefined,
    );
    if (candidates.length === 0) return;
    const next = candidates.reduce((least, id) => (byteOrder(id, least) < 0 ? id : least));
    const members = {} as Record<Name, DocumentSnapshot[]>;
    for (const name of names) {
      members[name] = [];
      while (ownerIdOf(name) === next) {
        members[name].push(heads.get(name)!.value as DocumentSnapshot);
        heads.set(name, await streams[name].docs.next());
      }
    }
    if (!owner.done && owner.value.id === next) {
      yield { ownerId: next, owner: owner.value, members };
      owner = await owners.next();
    } else yield { ownerId: next, members };
  }
}

/**
 * A user's books read again, the profile and every document of theirs at one read time
 * (a read-only transaction): the pages read each collection at its own time, so a write
 * between two reads can look like drift there, or hide one; never here.
 */
async function booksAtOneTime(userId: string): Promise<UserBooks> {
  return db().runTransaction(
    async (tx) => {
      const ofUser = (collection: CollectionReference) => tx.get(collection.where('userId', '==', userId));
      const [user, entries, transactions, redemptions] = await Promise.all([
        tx.get(usersCollection().doc(userId)),
        ofUser(ledgerCollection()),
        ofUser(transactionsCollection()),
        ofUser(redemptionsCollection()),
      ]);
      return { userId, user, entries: entries.docs, transactions: transactions.docs, redemptions: redemptions.docs };
    },
    { readOnly: true },
  );
}

/** Whether any of a user's documents as the pages read them was written after `since`. */
const changedSince = (books: UserBooks, since: Timestamp): boolean =>
  [books.user, ...books.entries, ...books.transactions, ...books.redemptions].some(
    (doc) => doc?.updateTime !== undefined && doc.updateTime > since,
  );

/**
 * Every user's books proven from their sources (auditChecks.ts' USER_CHECKS) and every kiosk's
 * counters from the transactions. A user whose documents differ in the pages, or
 * changed while the audit read them, is judged on a consistent read of their own
 * (booksAtOneTime): live traffic neither looks like drift nor hides it.
 */
export async function auditBooks({ onPage }: { onPage?: PageHook } = {}): Promise<AuditReport> {
  const report: AuditReport = { users: 0, kiosks: 0, entries: 0, transactions: 0, differences: [] };
  // Firestore's clock, not this process's: what was written after it was read at another time than the rest.
  const since = (await usersCollection().limit(1).get()).readTime;
  const byUser = (doc: DocumentSnapshot) => String(doc.get('userId'));
  for await (const { ownerId, owner, members } of joined(pages(usersCollection(), undefined, onPage), {
    entries: { docs: pages(ledgerCollection(), 'userId', onPage), ownerOf: byUser },
    transactions: { docs: pages(transactionsCollection(), 'userId', onPage), ownerOf: byUser },
    redemptions: { docs: pages(redemptionsCollection(), 'userId', onPage), ownerOf: byUser },
  })) {
    const books: UserBooks = { userId: ownerId, user: owner, ...members };
    report.entries += members.entries.length;
    if (owner) report.users++;
    if (differencesOf(books).length === 0 && !changedSince(books, since)) continue;
    report.differences.push(...differencesOf(await booksAtOneTime(ownerId)));
  }
  const promotions = new PromotionTally();
  for await (const { ownerId, owner, members } of joined(pages(kiosksCollection(), undefined, onPage), {
    transactions: { docs: pages(transactionsCollection(), 'kioskId', onPage), ownerOf: (t) => t.get('kioskId') },
  })) {
    const { transactions } = members;
    report.transactions += transactions.length;
    promotions.add(transactions);
    const plastic = transactions.reduce((sum, t) => sum + intOf(t.get('plasticCount')), 0);
    const metal = transactions.reduce((sum, t) => sum + intOf(t.get('metalCount')), 0);
    if (!owner) {
      report.differences.push(`transactions of kiosk ${ownerId}, which does not exist (${transactions.length})`);
      continue;
    }
    report.kiosks++;
    for (const [field, fromTransactions] of [
      ['plasticCount', plastic],
      ['metalCount', metal],
    ] as const) {
      const stored = intOf(owner.get(field));
      if (stored !== fromTransactions) {
        report.differences.push(`kiosk ${ownerId}: ${field} ${stored}, the transactions say ${fromTransactions}`);
      }
    }
  }
  report.differences.push(...(await promotions.differences()));
  return report;
}
