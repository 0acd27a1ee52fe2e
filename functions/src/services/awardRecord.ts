import { Timestamp, type DocumentReference, type DocumentSnapshot, type WriteBatch } from 'firebase-admin/firestore';
import {
  newTransaction,
  transactionResultFromSnapshot,
  transactionView,
  transactionsCollection,
  type RecordedTransaction,
  type TransactionResult,
  type TransactionView,
} from '../data/transactions';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { stageWebhookEvent } from '../data/webhookEvents';
import { reportInvalidKiosk, type depositKioskFromSnapshot } from '../data/kiosks';
import type { StoredPromotion } from '../data/promotions';
import type { Deposit } from '../domain/deposit';
import { keyReused, keyedTransactionId, requestFingerprint } from '../domain/idempotency';
import type { DepositSetting } from '../domain/promotions';
import type { Award, RewardsConfig } from '../domain/rewards';
import type { Place, RiskConfig } from '../domain/risk';
import { ApiError, conflict } from '../errors';
import type { BreakdownEntry } from '../model/promotionViews';
import type { HoldReason } from '../model/trustVocabulary';
import type { KioskStatus } from '../model/vocabulary';
import { stageHold } from './holds';

/*
 * What one deposit's award reads, may refuse and records (its transaction and its
 * `earn` ledger entry), and how a deposit recorded before under its key is answered.
 * The lower half under deposits.ts and anonymousDeposits.ts: when an award happens, in
 * the commit that credits the user or records an anonymous deposit, is theirs to
 * decide; nothing here calls back into them.
 */

/** Where deposits came from, and what only a deposit not recorded yet must pass. */
export interface AwardOrigin {
  /** The kiosk key that sent them. */
  apiKeyId: string;
  /** The first UTC day a deposit may still arrive (or be claimed, §18) for: earlier days' earnings are forgotten. */
  oldestAcceptedDay: string;
  /** Throws an ApiError for a new deposit the service must refuse; a retry is answered from its record first. */
  checkIfNew?: (deposit: Deposit) => void;
}

/**
 * What an award has read before its commit (deposits.ts' readShared: the rewards config,
 * the limits of §17, the kiosks, the active promotions of §16), and where its deposits came from.
 */
export interface AwardReads {
  config: RewardsConfig;
  limits: RiskConfig;
  kiosks: Map<string, ReturnType<typeof depositKioskFromSnapshot>>;
  clocks: Map<string, DepositSetting['kiosk']>;
  promotions: { current: StoredPromotion[] };
  origin: AwardOrigin;
}

/** How soon a kiosk whose record an operator must repair is asked to try again. */
const KIOSK_REPAIR_RETRY_SECONDS = 300;

/**
 * A kiosk with a status broken by hand may or may not be meant to take deposits (its
 * other fields do not matter to an award): refused whole, and retryable, so the kiosk
 * keeps the deposit and sends it again once an operator has mended it.
 */
export function assertTakesDeposits(kioskId: string, status: KioskStatus | undefined): void {
  if (status === undefined) {
    reportInvalidKiosk(kioskId, ['status']);
    throw new ApiError(
      'kiosk-misconfigured',
      `Kiosk ${kioskId} cannot accept transactions until an operator repairs its record; nothing was awarded`,
      { retryAfterSeconds: KIOSK_REPAIR_RETRY_SECONDS },
    );
  }
  if (status !== 'available') {
    throw conflict(`Kiosk ${kioskId} is ${status} and cannot accept transactions`, 'kiosk-unavailable');
  }
}

/** What a kiosk is told of one deposit: its transaction, and whether that was recorded before (a replay). */
export interface AwardOutcome {
  result: TransactionResult;
  replayed: boolean;
}

/** A claim of an anonymous transaction, awarded as its claimer's deposit of then (PlannedAward.claim). */
export interface PlannedClaim {
  /** What the deposit was worth when recorded (§16): the claim caps it, never prices it again. */
  recorded: BreakdownEntry[];
  /** claims/{transactionId}: created by the one claim that commits. */
  claimRef: DocumentReference;
  /** The request record of the claimer's Idempotency-Key; none without a key. */
  keyRef: DocumentReference | undefined;
  idempotencyKey: string | undefined;
  /** Of the code as stored: the same code is the same request. */
  fingerprint: string;
}

/** A deposit with the transaction its award creates (or finds), chosen once for all of its attempts. */
export interface PlannedAward {
  deposit: Deposit;
  fingerprint: string;
  transactionRef: DocumentReference;
  /** A claim (§18): the recorded anonymous transaction `transactionRef` awarded to `deposit.userId`. */
  claim?: PlannedClaim;
}

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
export const planAward = (deposit: Deposit): PlannedAward => ({
  deposit,
  fingerprint: fingerprintOf(deposit),
  transactionRef: deposit.idempotencyKey
    ? transactionsCollection().doc(keyedTransactionId(deposit.kioskId, deposit.idempotencyKey))
    : transactionsCollection().doc(),
});

/**
 * Stages the deposit's transaction and its one `earn` entry, under the transaction's
 * own id; a held deposit (`holdReasons`, contract §17) gets its hold instead of the
 * entry, which a release writes. Returns its answer.
 */
export function stageAward(
  batch: WriteBatch,
  { deposit, fingerprint, transactionRef }: PlannedAward,
  award: Award,
  origin: {
    userId: string;
    submissionId: string;
    apiKeyId: string;
    pushQueued: boolean;
    holdReasons: HoldReason[];
    kioskPlace: Place | undefined;
  },
): TransactionResult {
  const { userId } = origin;
  const { kioskId, plasticCount, metalCount, happenedAt, idempotencyKey } = deposit;
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
    status: origin.holdReasons.length > 0 ? 'held' : 'awarded',
    holdReasons: origin.holdReasons,
    breakdown: award.breakdown,
    kioskPlace: origin.kioskPlace,
  };
  batch.create(transactionRef, newTransaction(recorded));
  const transaction = stageEarned(batch, transactionRef.id, { ...recorded, userId, newBalance: award.currentPoints });
  return { success: true, transaction, pushNotification: origin.pushQueued };
}

/**
 * Stages what crediting a transaction to its user records beside the user's figures:
 * its one `earn` entry (the transaction's own id) and its `transaction.awarded`
 * webhook event, or for a held one (§17) its hold instead; returns the transaction as
 * told. A deposit's award and a claim's (services/claimAward.ts) alike.
 */
export function stageEarned(
  batch: WriteBatch,
  transactionId: string,
  recorded: RecordedTransaction & { userId: string; newBalance: number },
): TransactionView {
  const { userId, kioskId, plasticCount, metalCount, occurredAt } = recorded;
  if (recorded.status === 'held') {
    const held = transactionView(transactionId, recorded);
    stageHold(batch, { ...held, userId });
    return held;
  }
  batch.create(
    ledgerCollection().doc(transactionId),
    newLedgerEntry({
      userId,
      kind: 'earn',
      points: recorded.pointsEarned,
      balanceAfter: recorded.newBalance,
      transaction: { id: transactionId, kioskId, plasticCount, metalCount, occurredAt, breakdown: recorded.breakdown },
    }),
  );
  const transaction = transactionView(transactionId, recorded);
  // A claimed deposit's code stays with its user: a webhook never carries a code (contract, part four).
  const { claim: _code, ...told } = transaction;
  stageWebhookEvent(batch, { type: 'transaction.awarded', subjectId: transactionId, at: new Date(), data: told });
  return transaction;
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
