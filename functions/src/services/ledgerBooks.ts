/**
 * The ledger's books: opening balances for users from before the ledger, and the
 * audit that proves every balance from its entries and every kiosk counter from its
 * transactions. Both read page by page, in id order (merge joins), so their memory
 * does not grow with the data.
 */
import { FieldPath, type CollectionReference, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { kiosksCollection } from '../data/kiosks';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { transactionsCollection } from '../data/transactions';
import { pointsByMonthOf, usersCollection } from '../data/users';
import { oldestMonth, sumOf } from '../domain/pointsExpiry';

const PAGE = 500;
const intOf = (value: unknown): number => (Number.isSafeInteger(value) ? (value as number) : 0);
/** Firestore orders strings, ids included, by their UTF-8 bytes (not by UTF-16 code units as `<` does). */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Called after each page the audit reads, with the collection's id: lets a test interleave writes honestly. */
export type PageHook = (collectionId: string) => Promise<void>;

/** Every document of `query` (ordered by `field`, then id), `size` at a time, so memory does not grow with the data. */
export async function* pages(
  query: CollectionReference,
  field?: string,
  onPage?: PageHook,
  size = PAGE,
): AsyncGenerator<DocumentSnapshot> {
  const ordered = field ? query.orderBy(field).orderBy(FieldPath.documentId()) : query.orderBy(FieldPath.documentId());
  let last: DocumentSnapshot | undefined;
  for (;;) {
    const page = await (last ? ordered.startAfter(last) : ordered).limit(size).get();
    await onPage?.(query.id);
    yield* page.docs;
    if (page.docs.length < size) return;
    last = page.docs.at(-1);
  }
}

interface Sums {
  current: number;
  total: number;
  entries: number;
}

/** One user's entries summed; `earn` and `adjust` count toward what they ever earned. */
function addEntry(sums: Sums, entry: DocumentSnapshot): void {
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

export interface AuditReport {
  users: number;
  kiosks: number;
  entries: number;
  transactions: number;
  differences: string[];
}

/**
 * Walks two id-ordered streams side by side: `owners` (users or kiosks) and the
 * documents that belong to them (ordered by their owner's id), summing per owner.
 */
async function* joined(
  owners: AsyncGenerator<DocumentSnapshot>,
  members: AsyncGenerator<DocumentSnapshot>,
  ownerOf: (member: DocumentSnapshot) => string,
): AsyncGenerator<{ ownerId: string; owner?: DocumentSnapshot; members: DocumentSnapshot[] }> {
  let owner = await owners.next();
  let member = await members.next();
  while (!owner.done || !member.done) {
    const ownerId = owner.done ? undefined : owner.value.id;
    const memberOwner = member.done ? undefined : ownerOf(member.value);
    const next =
      ownerId === undefined
        ? memberOwner!
        : memberOwner === undefined || byteOrder(ownerId, memberOwner) <= 0
          ? ownerId
          : memberOwner;
    const group: DocumentSnapshot[] = [];
    while (!member.done && ownerOf(member.value) === next) {
      group.push(member.value);
      member = await members.next();
    }
    if (ownerId === next) {
      yield { ownerId: next, owner: owner.value as DocumentSnapshot, members: group };
      owner = await owners.next();
    } else yield { ownerId: next, members: group };
  }
}

/**
 * How a user's stored balances differ from the sums of their ledger entries, and the
 * model of their points by month (domain/pointsExpiry.ts) from `currentPoints`, with
 * the oldest month the expiry run queries on (nothing: they agree).
 */
function userDifferences(userId: string, user: DocumentSnapshot | undefined, sums: Sums): string[] {
  if (!user?.exists) return [`ledger entries of user ${userId}, who does not exist (${sums.entries} entries)`];
  const balances = (
    [
      ['currentPoints', sums.current],
      ['totalPoints', sums.total],
    ] as const
  ).flatMap(([field, fromLedger]) => {
    const stored = intOf(user.get(field));
    return stored === fromLedger ? [] : [`user ${userId}: ${field} ${stored}, the ledger says ${fromLedger}`];
  });
  return [...balances, ...pointsModelDifferences(userId, user)];
}

function pointsModelDifferences(userId: string, user: DocumentSnapshot): string[] {
  // A profile from before the model holds its whole balance in one month (pointsByMonthOf): nothing to differ.
  if (user.get('pointsByMonth') === undefined) return [];
  const byMonth = pointsByMonthOf(user.data()!);
  const differences: string[] = [];
  const current = intOf(user.get('currentPoints'));
  if (sumOf(byMonth) !== current) {
    differences.push(`user ${userId}: pointsByMonth sums to ${sumOf(byMonth)}, currentPoints is ${current}`);
  }
  const oldest = user.get('pointsOldestMonth') ?? null;
  if (oldest !== oldestMonth(byMonth)) {
    differences.push(`user ${userId}: pointsOldestMonth ${oldest}, pointsByMonth says ${oldestMonth(byMonth)}`);
  }
  return differences;
}

/**
 * A user's differences read again, the user and all their entries at one read time (a
 * read-only transaction): the pages read the users and the ledger at different times,
 * so an award between the two reads looks like drift there, never here.
 */
async function userDifferencesAtOneTime(userId: string): Promise<string[]> {
  return db().runTransaction(
    async (tx) => {
      const [user, entries] = await Promise.all([
        tx.get(usersCollection().doc(userId)),
        tx.get(ledgerCollection().where('userId', '==', userId)),
      ]);
      const sums: Sums = { current: 0, total: 0, entries: 0 };
      for (const entry of entries.docs) addEntry(sums, entry);
      return userDifferences(userId, user, sums);
    },
    { readOnly: true },
  );
}

/**
 * Every user's balances from the ledger and every kiosk's counters from the
 * transactions. A user whose figures differ in the pages is judged on a consistent
 * read of their own (userDifferencesAtOneTime), so live traffic is no drift.
 */
export async function auditBooks({ onPage }: { onPage?: PageHook } = {}): Promise<AuditReport> {
  const report: AuditReport = { users: 0, kiosks: 0, entries: 0, transactions: 0, differences: [] };
  const entries = pages(ledgerCollection(), 'userId', onPage);
  const users = pages(usersCollection(), undefined, onPage);
  for await (const { ownerId, owner, members } of joined(users, entries, (e) => e.get('userId'))) {
    const sums: Sums = { current: 0, total: 0, entries: 0 };
    for (const entry of members) addEntry(sums, entry);
    report.entries += sums.entries;
    if (owner) report.users++;
    if (userDifferences(ownerId, owner, sums).length === 0) continue;
    report.differences.push(...(await userDifferencesAtOneTime(ownerId)));
  }
  const transactions = pages(transactionsCollection(), 'kioskId', onPage);
  for await (const { ownerId, owner, members } of joined(
    pages(kiosksCollection(), undefined, onPage),
    transactions,
    (t) => t.get('kioskId'),
  )) {
    report.transactions += members.length;
    const plastic = members.reduce((sum, t) => sum + intOf(t.get('plasticCount')), 0);
    const metal = members.reduce((sum, t) => sum + intOf(t.get('metalCount')), 0);
    if (!owner) {
      report.differences.push(`transactions of kiosk ${ownerId}, which does not exist (${members.length})`);
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
  return report;
}
