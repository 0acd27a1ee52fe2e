/**
 * The audit of the books: every balance proved from its entries, the entries from their
 * sources (transactions, redemptions, erasures) and every kiosk counter from its
 * transactions. It reads page by page, in id order (merge joins), so its memory does not
 * grow with the data.
 */
import { Timestamp, type CollectionReference, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { kiosksCollection } from '../data/kiosks';
import { ledgerCollection } from '../data/ledger';
import { redemptionsCollection } from '../data/redemptions';
import { transactionsCollection } from '../data/transactions';
import { isErasedProfile, pointsByMonthOf, usersCollection } from '../data/users';
import { oldestMonth, sumOf } from '../domain/pointsExpiry';
import { addEntry, intOf, pages, type PageHook, type Sums } from './ledgerBooks';
import { PromotionTally, breakdownDifferences } from './promotionAudit';

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
 * Everything the books hold of one user: the profile, the ledger entries, and the
 * sources they must agree with, the user's transactions and redemptions.
 */
interface UserBooks {
  userId: string;
  user?: DocumentSnapshot;
  entries: DocumentSnapshot[];
  transactions: DocumentSnapshot[];
  redemptions: DocumentSnapshot[];
}

/** One rule of the books, judged on one user's documents: a line per difference, naming what differs. */
type UserCheck = (books: UserBooks) => string[];

/** `docs` by `keyOf` of each, in their order. */
function groupedBy(
  docs: DocumentSnapshot[],
  keyOf: (doc: DocumentSnapshot) => string,
): Map<string, DocumentSnapshot[]> {
  const groups = new Map<string, DocumentSnapshot[]>();
  for (const doc of docs) {
    const group = groups.get(keyOf(doc));
    if (group) group.push(doc);
    else groups.set(keyOf(doc), [doc]);
  }
  return groups;
}

const ofKind = (books: UserBooks, kind: string) => books.entries.filter((entry) => entry.get('kind') === kind);
/** ` (id, id)`, or nothing for no entries. */
const idsOf = (entries: DocumentSnapshot[]) =>
  entries.length === 0 ? '' : ` (${entries.map((entry) => entry.id).join(', ')})`;

/** currentPoints and totalPoints from the entries, and the model of points by month from currentPoints. */
const balancesFromEntries: UserCheck = ({ userId, user, entries }) => {
  const sums: Sums = { current: 0, total: 0, entries: 0 };
  for (const entry of entries) addEntry(sums, entry);
  if (!user?.exists) {
    return entries.length === 0
      ? []
      : [`ledger entries of user ${userId}, who does not exist (${sums.entries} entries)`];
  }
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
};

/**
 * Every `earn` entry names a transaction of the user in `transaction.id` (as the
 * history shows it), and every transaction has exactly one `earn` entry, of its
 * `pointsEarned` (a held one none: heldWithoutEarn).
 */
const earnedFromTransactions: UserCheck = (books) => {
  const { userId, transactions } = books;
  const earned = ofKind(books, 'earn');
  const byTransaction = groupedBy(earned, (entry) => String(entry.get('transaction.id')));
  const transactionIds = new Set(transactions.map((transaction) => transaction.id));
  const differences = earned
    .filter((entry) => !transactionIds.has(entry.get('transaction.id')))
    .map(
      (entry) =>
        `earn entry ${entry.id} of user ${userId} names transaction ${entry.get('transaction.id')}, ` +
        'which is no transaction of theirs',
    );
  for (const transaction of transactions.filter((each) => !isHeld(each) && isCredited(each))) {
    const entries = byTransaction.get(transaction.id) ?? [];
    const pointsEarned = intOf(transaction.get('pointsEarned'));
    if (entries.length !== 1) {
      differences.push(
        `transaction ${transaction.id} of user ${userId}: ${entries.length} earn entries, not 1${idsOf(entries)}`,
      );
    } else if (entries[0].get('points') !== pointsEarned) {
      differences.push(
        `transaction ${transaction.id} of user ${userId}: pointsEarned ${pointsEarned}, ` +
          `its earn entry ${entries[0].id} says ${entries[0].get('points')}`,
      );
    }
  }
  return differences;
};

/** Held for review (contract §17), open or rejected: a released one is `awarded`. */
const isHeld = (transaction: DocumentSnapshot) => transaction.get('status') === 'held';

/**
 * Trust (contract §17): a held transaction, open or rejected, has no `earn` entry (a
 * released one is `awarded`, with exactly one: earnedFromTransactions), and the
 * user's `heldPoints` are the points of their open holds.
 */
const heldWithoutEarn: UserCheck = (books) => {
  const { userId, user, transactions } = books;
  const earned = new Set(ofKind(books, 'earn').map((entry) => String(entry.get('transaction.id'))));
  const held = transactions.filter(isHeld);
  const differences = held
    .filter((transaction) => earned.has(transaction.id))
    .map((transaction) => `transaction ${transaction.id} of user ${userId} is held, yet has an earn entry`);
  const open = held.filter((transaction) => transaction.get('holdResolution') !== 'rejected');
  const openPoints = open.reduce((sum, transaction) => sum + intOf(transaction.get('pointsEarned')), 0);
  const stored = user?.exists && user.get('erasedAt') === undefined ? intOf(user.get('heldPoints')) : openPoints;
  if (stored !== openPoints) {
    differences.push(`user ${userId}: heldPoints ${stored}, the open holds say ${openPoints}`);
  }
  return differences;
};
/** Credited to its user: not an anonymous deposit waiting for its claim (§18), which has no `earn` entry yet. */
const isCredited = (transaction: DocumentSnapshot): boolean => transaction.get('status') !== 'unclaimed';

/**
 * Anonymous deposits (§18): a transaction of nobody is unclaimed, with its code; an
 * unclaimed one is nobody's; a claimed one names its claimer and when. (Its `earn`
 * entry is earnedFromTransactions': none while unclaimed, one once claimed.)
 */
const unclaimedAreNobodys: UserCheck = ({ transactions }) =>
  transactions.flatMap((transaction) => {
    const userId: unknown = transaction.get('userId');
    const unclaimed = !isCredited(transaction);
    if (userId === null && !unclaimed) return [`transaction ${transaction.id} has no user but is not unclaimed`];
    if (unclaimed && userId !== null) return [`unclaimed transaction ${transaction.id} names user ${String(userId)}`];
    if (unclaimed && typeof transaction.get('claim.code') !== 'string') {
      return [`unclaimed transaction ${transaction.id} has no claim code`];
    }
    if (transaction.get('claimedAt') !== undefined && unclaimed) {
      return [`transaction ${transaction.id} was claimed but is still unclaimed`];
    }
    return [];
  });

/**
 * Every redemption has exactly one `redeem` entry, of minus its cost, and a `refund`
 * (one, of its cost) only when it is cancelled; every such entry names a redemption of
 * the user. A `redeem` entry without a redemption is an opening balance (openBalance).
 */
const spentOnRedemptions: UserCheck = (books) => {
  const { userId, redemptions } = books;
  const named = [...ofKind(books, 'redeem'), ...ofKind(books, 'refund')].filter(
    (entry) => entry.get('redemption') !== undefined,
  );
  const byRedemption = groupedBy(named, (entry) => String(entry.get('redemption.id')));
  const redemptionIds = new Set(redemptions.map((redemption) => redemption.id));
  const differences = named
    .filter((entry) => !redemptionIds.has(entry.get('redemption.id')))
    .map(
      (entry) =>
        `${entry.get('kind')} entry ${entry.id} of user ${userId} names redemption ${entry.get('redemption.id')}, ` +
        'which is no redemption of theirs',
    );
  for (const redemption of redemptions) {
    const entries = byRedemption.get(redemption.id) ?? [];
    const cost = intOf(redemption.get('cost'));
    const cancelled = redemption.get('status') === 'cancelled';
    for (const [kind, points, expected] of [
      ['redeem', -cost, 1],
      ['refund', cost, cancelled ? 1 : 0],
    ] as const) {
      const found = entries.filter((entry) => entry.get('kind') === kind);
      const status = `${redemption.get('status')}`;
      if (found.length !== expected) {
        differences.push(
          `redemption ${redemption.id} of user ${userId} (${status}): ${found.length} ${kind} entries, ` +
            `not ${expected}${idsOf(found)}`,
        );
      } else if (found.length === 1 && found[0].get('points') !== points) {
        differences.push(
          `redemption ${redemption.id} of user ${userId}: its ${kind} entry ${found[0].id} is ` +
            `${found[0].get('points')} points, not ${points}`,
        );
      }
    }
  }
  return differences;
};

/** The day an `expire` entry is of: the one in its id (services/pointsExpiry.ts expireEntryId), else its time's. */
function expiredOn(userId: string, entry: DocumentSnapshot): string {
  const prefix = `expire-${userId}-`;
  if (entry.id.startsWith(prefix)) return entry.id.slice(prefix.length);
  const createdAt: unknown = entry.get('createdAt');
  return createdAt instanceof Timestamp ? createdAt.toDate().toISOString().slice(0, 10) : 'an unknown day';
}

/** At most one `expire` entry per user and date. */
const expiredOncePerDay: UserCheck = (books) =>
  [...groupedBy(ofKind(books, 'expire'), (entry) => expiredOn(books.userId, entry))]
    .filter(([, entries]) => entries.length > 1)
    .map(([day, entries]) => `user ${books.userId}: ${entries.length} expire entries of ${day}${idsOf(entries)}`);

/** A `forfeit` entry only on an erased profile. */
const forfeitedOnlyWhenErased: UserCheck = (books) =>
  books.user?.exists && isErasedProfile(books.user)
    ? []
    : ofKind(books, 'forfeit').map(
        (entry) => `forfeit entry ${entry.id} of user ${books.userId}, whose profile is not erased`,
      );

/**
 * The rules of the books, each judged on one user's documents. A rule about another
 * source of a user's points is one more check here (and, if it reads another
 * collection, one more stream in auditBooks and one more query in booksAtOneTime).
 */
const USER_CHECKS: readonly UserCheck[] = [
  balancesFromEntries,
  earnedFromTransactions,
  heldWithoutEarn,
  // Claim codes (§18).
  unclaimedAreNobodys,
  spentOnRedemptions,
  expiredOncePerDay,
  forfeitedOnlyWhenErased,
  // Promotions (§16): each transaction's breakdown sums to its points.
  ({ transactions }) => breakdownDifferences(transactions),
];

const differencesOf = (books: UserBooks): string[] => USER_CHECKS.flatMap((check) => check(books));

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
 * Every user's books proven from their sources (USER_CHECKS) and every kiosk's
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
