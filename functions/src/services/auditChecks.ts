/**
 * The rules of the books (services/audit.ts reads the documents and reports): each
 * judged on one user's documents, the balances from the ledger entries, the entries
 * from their sources (transactions, redemptions, expiry, erasure), and part four's:
 * holds (§17), claim codes (§18), the promotions' breakdowns (§16).
 */
import { Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { isErasedProfile, pointsByMonthOf } from '../data/users';
import { oldestMonth, sumOf } from '../domain/pointsExpiry';
import { addEntry, intOf, type Sums } from './ledgerBooks';
import { breakdownDifferences } from './promotionAudit';

/**
 * Everything the books hold of one user: the profile, the ledger entries, and the
 * sources they must agree with, the user's transactions and redemptions.
 */
export interface UserBooks {
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
 * collection, one more stream in audit.ts' auditBooks and one more query in its booksAtOneTime).
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

export const differencesOf = (books: UserBooks): string[] => USER_CHECKS.flatMap((check) => check(books));

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
