import { Timestamp, type DocumentReference, type DocumentSnapshot, type WriteBatch } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import {
  newTransaction,
  transactionResultFromSnapshot,
  transactionView,
  transactionsCollection,
  type RecordedTransaction,
  type TransactionResult,
} from '../data/transactions';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import type { Deposit } from '../domain/deposit';
import { keyReused, keyedTransactionId, legacyIdempotencyRecordId, requestFingerprint } from '../domain/idempotency';
import type { Award } from '../domain/rewards';

/*
 * What one deposit's award records (its transaction and its `earn` ledger entry), and
 * how a deposit recorded before under its key is answered. When it happens, in the
 * commit that credits the user, is awardTransaction.ts's to decide.
 */

export interface AwardOutcome {
  result: TransactionResult;
  replayed: boolean;
}

/** A deposit to award, with the Idempotency-Key its kiosk sent for it, if any. */
export interface DepositToAward {
  deposit: Deposit;
  idempotencyKey?: string;
  /** Checks (throwing an ApiError) that only a deposit not recorded yet must pass: a retry is answered from its record first. */
  checkIfNew?: () => void;
}

/** A deposit with the documents its award reads and creates, chosen once for all of its attempts. */
export interface PlannedAward extends DepositToAward {
  fingerprint: string;
  transactionRef: DocumentReference;
  /** A 24-hour record of the idempotency scheme before keyed transaction ids: read, never written. */
  legacyRef?: DocumentReference;
}

const legacyIdempotencyCollection = () => db().collection('idempotency');

/** What a retry compares: the body as sent (the key itself aside), its instant in one spelling. */
const fingerprintOf = ({ kioskId, userId, plasticCount, metalCount, happenedAt, occurredAt }: Deposit): string =>
  requestFingerprint({
    kioskId,
    userId,
    plasticCount,
    metalCount,
    ...(occurredAt !== undefined && { occurredAt: happenedAt.toISOString() }),
  });

/**
 * With an idempotency key the transaction's id is derived from kiosk and key, so
 * every submission of the key creates that one document; without one it is random,
 * chosen once per submission.
 */
export const planAward = ({ deposit, idempotencyKey, checkIfNew }: DepositToAward): PlannedAward => ({
  deposit,
  idempotencyKey,
  checkIfNew,
  fingerprint: fingerprintOf(deposit),
  transactionRef: idempotencyKey
    ? transactionsCollection().doc(keyedTransactionId(deposit.kioskId, idempotencyKey))
    : transactionsCollection().doc(),
  legacyRef: idempotencyKey
    ? legacyIdempotencyCollection().doc(legacyIdempotencyRecordId(deposit.kioskId, idempotencyKey))
    : undefined,
});

/** Stages the deposit's transaction and its one `earn` entry, under the transaction's own id; returns its answer. */
export function stageAward(
  batch: WriteBatch,
  { deposit, idempotencyKey, fingerprint, transactionRef }: PlannedAward,
  award: Award,
  origin: { submissionId: string; apiKeyId: string; pushQueued: boolean },
): TransactionResult {
  const { kioskId, userId, plasticCount, metalCount, happenedAt } = deposit;
  const recorded: RecordedTransaction = {
    userId,
    kioskId,
    plasticCount,
    metalCount,
    totalItems: award.totalItems,
    pointsEarned: award.pointsEarned,
    capped: award.capped,
    balanceBefore: award.balanceBefore,
    newBalance: award.currentPoints,
    occurredAt: happenedAt,
    idempotencyKey: idempotencyKey ?? null,
    requestFingerprint: idempotencyKey ? fingerprint : null,
    submissionId: origin.submissionId,
    apiKeyId: origin.apiKeyId,
    pushQueued: origin.pushQueued,
  };
  batch.create(transactionRef, newTransaction(recorded));
  batch.create(
    ledgerCollection().doc(transactionRef.id),
    newLedgerEntry({
      userId,
      kind: 'earn',
      points: award.pointsEarned,
      balanceAfter: award.currentPoints,
      transaction: { id: transactionRef.id, kioskId, plasticCount, metalCount, occurredAt: happenedAt },
    }),
  );
  return {
    success: true,
    transaction: transactionView(transactionRef.id, recorded),
    pushNotification: origin.pushQueued,
  };
}

/**
 * The answer for a deposit found recorded: this submission's own (a commit whose
 * answer was lost), or an earlier one's, which is a replay (422 with another body).
 */
export function recordedAnswer(award: PlannedAward, recorded: DocumentSnapshot, submissionId: string): AwardOutcome {
  const replayed = recorded.get('submissionId') !== submissionId;
  if (replayed && !isSameRequest(award, recorded)) throw keyReused();
  return { result: transactionResultFromSnapshot(recorded), replayed };
}

/**
 * The recorded transaction was made by this request sent before: the same body, or
 * the same body but for an `occurredAt` the retry leaves out (it then happened when
 * the first request said).
 */
function isSameRequest({ deposit, fingerprint }: PlannedAward, recorded: DocumentSnapshot): boolean {
  const stored = recorded.get('requestFingerprint');
  if (stored === fingerprint) return true;
  const recordedAt = recorded.get('occurredAt');
  if (deposit.occurredAt !== undefined || !(recordedAt instanceof Timestamp)) return false;
  const happenedAt = recordedAt.toDate();
  return stored === fingerprintOf({ ...deposit, occurredAt: happenedAt.toISOString(), happenedAt });
}

/**
 * A key first used before keyed transaction ids is answered from its 24-hour record
 * while the record exists. Such a transaction was never capped (the cap refused
 * then), and it happened when it was recorded.
 */
export function legacyAnswer({ fingerprint }: PlannedAward, record: DocumentSnapshot): AwardOutcome {
  if (record.get('fingerprint') !== fingerprint) throw keyReused();
  const stored = record.get('response') as Omit<TransactionResult, 'transaction'> & {
    transaction: Omit<TransactionResult['transaction'], 'capped' | 'occurredAt'>;
  };
  const createdAt = record.get('createdAt');
  const occurredAt = (createdAt instanceof Timestamp ? createdAt.toDate() : new Date()).toISOString();
  return { result: { ...stored, transaction: { ...stored.transaction, capped: false, occurredAt } }, replayed: true };
}
