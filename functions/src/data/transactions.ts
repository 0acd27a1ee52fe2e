import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { effectsPending } from './pendingEffects';
import { newestFirstPage } from './userPages';
import type { TransactionView } from '../model/views';
import { legacyBreakdown } from '../domain/promotions';
import type { BreakdownEntry } from '../model/promotionViews';
import type { HoldReason, TransactionStatus } from '../model/trustVocabulary';
import type { Place, Visit } from '../domain/risk';
import { placeFrom, storedPlace } from './kiosks';

export const transactionsCollection = () => db().collection('transactions');

/** What an award records; the trigger adds `effects` later. */
export interface RecordedTransaction {
  /** Null: an anonymous deposit (§18), nobody's until claimed. */
  userId: string | null;
  kioskId: string;
  plasticCount: number;
  metalCount: number;
  totalItems: number;
  pointsEarned: number;
  /** The daily cap reduced `pointsEarned`. */
  capped: boolean;
  /** Null while unclaimed (§18): no balance is changed. */
  balanceBefore: number | null;
  newBalance: number | null;
  /** When the kiosk took the deposit (before an offline kiosk uploaded it, perhaps days before). */
  occurredAt: Date;
  idempotencyKey: string | null;
  /** The body's fingerprint, for telling a retry of the key (replayed) from a reuse with another body (422). */
  requestFingerprint: string | null;
  /** Chosen once per submission: tells a commit of its own whose answer was lost from a concurrent twin's. */
  submissionId: string;
  /** The kiosk key that submitted it (its SHA-256), for tracing a leaked key. */
  apiKeyId: string;
  /** Whether the user had a push token when it was recorded (the response's `pushNotification`). */
  pushQueued: boolean;
  /** Why these points (§16): the base, then each promotion's, summing to pointsEarned. */
  breakdown: BreakdownEntry[];
  /** `held`: its points wait for review (contract §17); `unclaimed`: an anonymous deposit's wait for a claim (§18). */
  status: TransactionStatus;
  /** Every rule a held deposit tripped; none for one awarded at once. */
  holdReasons: HoldReason[];
  /**
   * Where its kiosk stood when it was recorded (contract §17, travel): a later deposit judged against this one needs
   * no read of the kiosk. Absent on those recorded before it was kept, or at a kiosk without a place.
   */
  kioskPlace?: Place;
  // Claim codes (contract §18).
  /** An anonymous deposit's code and until when it is honoured; absent on a deposit made by a user. */
  claim?: { code: string; expiresAt: Date };
  /** When a user claimed it. */
  claimedAt?: Date;
}

/** A recorded transaction as its kiosk is told (the `transaction` of POST /kiosk/transaction). */
export type { TransactionView };

/** How `transaction`, recorded under `id`, is told to its kiosk. */
export const transactionView = (id: string, transaction: RecordedTransaction): TransactionView => ({
  id,
  userId: transaction.userId,
  kioskId: transaction.kioskId,
  plasticCount: transaction.plasticCount,
  metalCount: transaction.metalCount,
  totalItems: transaction.totalItems,
  pointsEarned: transaction.pointsEarned,
  capped: transaction.capped,
  newBalance: transaction.newBalance,
  occurredAt: transaction.occurredAt.toISOString(),
  breakdown: transaction.breakdown,
  status: transaction.status,
  holdReasons: transaction.holdReasons,
  // Claim codes (contract §18).
  ...(transaction.claim && {
    claim: { code: transaction.claim.code, expiresAt: transaction.claim.expiresAt.toISOString() },
  }),
  ...(transaction.claimedAt && { claimedAt: transaction.claimedAt.toISOString() }),
});

/** What a kiosk is told about a recorded transaction (the body of POST /kiosk/transaction). */
export interface TransactionResult {
  success: true;
  transaction: TransactionView;
  pushNotification: boolean;
}

/** A transactions/{id} document as first stored; the one place one is written out. */
export const newTransaction = ({
  occurredAt,
  claim,
  claimedAt,
  kioskPlace,
  ...transaction
}: RecordedTransaction): DocumentData => ({
  ...transaction,
  occurredAt: Timestamp.fromDate(occurredAt),
  ...(kioskPlace && { kioskPlace: storedPlace(kioskPlace) }),
  ...(claim && { claim: { code: claim.code, expiresAt: Timestamp.fromDate(claim.expiresAt) } }),
  ...(claimedAt && { claimedAt: Timestamp.fromDate(claimedAt) }),
  createdAt: FieldValue.serverTimestamp(),
  ...effectsPending,
});

/** When a stored transaction happened (one recorded before `occurredAt` existed was given it by `migrate`). */
export function occurredAtOf(data: DocumentData): Date {
  const occurredAt: unknown = data.occurredAt;
  if (!(occurredAt instanceof Timestamp)) throw new Error('a transaction without occurredAt: run `migrate --apply`');
  return occurredAt.toDate();
}

/** What a stored transaction says of its claim (§18); documents recorded before claims have none. */
export function claimOf(data: DocumentData): Pick<RecordedTransaction, 'status' | 'claim' | 'claimedAt'> {
  const { status, claim, claimedAt } = data;
  return {
    // Recorded before trust and claims (contract §17, §18): awarded.
    status: status === 'held' || status === 'unclaimed' ? status : 'awarded',
    ...(claim?.expiresAt instanceof Timestamp && {
      claim: { code: String(claim.code), expiresAt: claim.expiresAt.toDate() },
    }),
    ...(claimedAt instanceof Timestamp && { claimedAt: claimedAt.toDate() }),
  };
}

/**
 * The answer for a transaction as it was recorded, read from its document: a commit
 * whose answer was lost is reported from what actually landed, never from what was
 * staged, and a replay repeats the original answer.
 */
export function transactionResultFromSnapshot(snapshot: DocumentSnapshot): TransactionResult {
  const recorded = recordedTransactionOf(snapshot);
  return {
    success: true,
    transaction: transactionView(snapshot.id, recorded),
    pushNotification: recorded.pushQueued === true,
  };
}

/** A stored transaction as recorded, but for the fields older documents may lack. */
export function recordedTransactionOf(snapshot: DocumentSnapshot): RecordedTransaction {
  const data = snapshot.data();
  if (!data) throw new Error(`transaction ${snapshot.id} does not exist`);
  return {
    ...(data as RecordedTransaction),
    capped: data.capped === true,
    occurredAt: occurredAtOf(data),
    breakdown: data.breakdown ?? legacyBreakdown(data.pointsEarned),
    holdReasons: Array.isArray(data.holdReasons) ? data.holdReasons : [],
    kioskPlace: placeFrom(data.kioskPlace),
    ...claimOf(data),
  };
}

/** Where and when a stored deposit was made, as the travel limit compares it (contract §17); undefined without a time. */
export function visitFromSnapshot(snapshot: DocumentSnapshot): Visit | undefined {
  const at: unknown = snapshot.get('occurredAt');
  if (!(at instanceof Timestamp)) return undefined;
  return { kioskId: String(snapshot.get('kioskId')), at: at.toDate(), place: placeFrom(snapshot.get('kioskPlace')) };
}

/** One page of a user's transactions, newest first, as their kiosks were told (see newestFirstPage). */
export const transactionsPage = (userId: string, limit: number, cursor: string | undefined) =>
  newestFirstPage(
    transactionsCollection(),
    userId,
    { limit, cursor },
    (snapshot) => transactionResultFromSnapshot(snapshot).transaction,
  );
