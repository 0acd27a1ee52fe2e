import {
  FieldValue,
  Timestamp,
  type DocumentReference,
  type DocumentSnapshot,
  type WriteBatch,
} from 'firebase-admin/firestore';
import { claimCodeRef, claimsCollection, keyedClaimRecordId, newClaim, newClaimCodeEntry } from '../data/claims';
import { effectsPending } from '../data/pendingEffects';
import { newRequestRecord, requestRecordsCollection } from '../data/requestRecords';
import {
  newTransaction,
  recordedTransactionOf,
  transactionResultFromSnapshot,
  transactionView,
  type RecordedTransaction,
  type TransactionResult,
} from '../data/transactions';
import { claimExpiry, claimStateOf, newClaimCode } from '../domain/claimCode';
import { keyReused, requestFingerprint } from '../domain/idempotency';
import type { Award } from '../domain/rewards';
import { pointsByPromotion } from '../domain/promotions';
import type { Place } from '../domain/risk';
import { promotionsCollection, shardRef } from '../data/promotions';
import type { BreakdownEntry } from '../model/promotionViews';
import { HOLD_REASONS, type HoldReason } from '../model/trustVocabulary';
import { homeShard } from './promotionBudgets';
import { conflict } from '../errors';
import type { AwardOutcome, PlannedAward, PlannedClaim } from './awardRecord';
import { stageEarned } from './awardRecord';

/*
 * The claims' half of the award path (contract §18), called by services/deposits.ts
 * where a deposit's award is decided: how an anonymous deposit is recorded, and how
 * a claim credits that recorded transaction to its claimer. The arithmetic (the
 * deposit's worth, the daily cap, the user's figures) stays deposits.ts's, one path
 * for deposits and claims alike.
 */

/** The claim of `transactionId` (worth `recorded`) by `userId`, with its Idempotency-Key if any. */
export const planClaim = (
  transactionId: string,
  {
    userId,
    code,
    recorded,
    idempotencyKey,
  }: { userId: string; code: string; recorded: BreakdownEntry[]; idempotencyKey?: string },
): PlannedClaim => ({
  recorded,
  claimRef: claimsCollection().doc(transactionId),
  keyRef: idempotencyKey ? requestRecordsCollection().doc(keyedClaimRecordId(userId, idempotencyKey)) : undefined,
  idempotencyKey,
  fingerprint: requestFingerprint({ code }),
});

/**
 * What a claim reads with the user and the transaction, in the award's one fresh read:
 * its records, and the promotions it was worth, whose shards the cap may give back to.
 */
export const claimReads = (claim: PlannedClaim): DocumentReference[] => [
  claim.claimRef,
  ...(claim.keyRef ? [claim.keyRef] : []),
  ...[...pointsByPromotion(claim.recorded).keys()].map((promotionId) => promotionsCollection().doc(promotionId)),
];

/**
 * A claim that awards nothing now is answered (this call's own commit whose answer was
 * lost; a replay of the claimer's Idempotency-Key) or refused: 422 for a key sent
 * with another code, 409 `claim-used` when anyone claimed it before, 409
 * `claim-expired` past its `expiresAt`. Undefined: award it.
 */
export function claimAnswered(
  claim: PlannedClaim,
  transaction: DocumentSnapshot,
  read: (ref: DocumentReference) => DocumentSnapshot | undefined,
  submissionId: string,
): AwardOutcome | undefined {
  const claimed = read(claim.claimRef);
  if (claimed?.get('submissionId') === submissionId) {
    return { result: transactionResultFromSnapshot(transaction), replayed: false };
  }
  const keyed = claim.keyRef && read(claim.keyRef);
  if (keyed?.exists) {
    if (keyed.get('requestFingerprint') !== claim.fingerprint) throw keyReused();
    return { result: transactionResultFromSnapshot(transaction), replayed: true };
  }
  const recorded = recordedTransactionOf(transaction);
  const expiresAt = recorded.claim?.expiresAt ?? recorded.occurredAt;
  const state = claimStateOf(
    { claimed: recorded.status !== 'unclaimed' || claimed?.exists === true, expiresAt },
    new Date(),
  );
  if (state === 'claimed') throw conflict('This code was claimed already', 'claim-used');
  if (state === 'expired') throw conflict(`This code expired at ${expiresAt.toISOString()}`, 'claim-expired');
  return undefined;
}

/**
 * Stages the claim: the transaction becomes the user's, awarded `award` (the cap of
 * its `occurredAt` day applied), with its `earn` entry and webhook event
 * (stageEarned, as a deposit's), the claim's record, and its effects pending again,
 * so that the claim's trigger tells the user (services/transactionEffects.ts; the
 * kiosk counted it when it was recorded). The update is guarded by the transaction as
 * read, and claims/{id} is a create: of claims at once, one commits.
 */
export function stageClaimed(
  batch: WriteBatch,
  { transactionRef, claim }: PlannedAward & { claim: PlannedClaim },
  transaction: DocumentSnapshot,
  award: Award,
  origin: {
    userId: string;
    submissionId: string;
    pushQueued: boolean;
    holdReasons: HoldReason[];
    /** The claim's reads (claimReads), as read with the transaction. */
    read: (ref: DocumentReference) => DocumentSnapshot | undefined;
  },
): TransactionResult {
  const { userId, submissionId, pushQueued, holdReasons, read } = origin;
  const claimedAt = new Date();
  const credited = {
    userId,
    status: holdReasons.length > 0 ? ('held' as const) : ('awarded' as const),
    holdReasons,
    breakdown: award.breakdown,
    pointsEarned: award.pointsEarned,
    capped: award.capped,
    balanceBefore: award.balanceBefore,
    newBalance: award.currentPoints,
    pushQueued,
  };
  batch.update(
    transactionRef,
    {
      ...credited,
      claimedAt: Timestamp.fromDate(claimedAt),
      'effects.completedAt': FieldValue.delete(),
      ...effectsPending,
    },
    { lastUpdateTime: transaction.updateTime! },
  );
  batch.create(claim.claimRef, newClaim({ userId, submissionId, idempotencyKey: claim.idempotencyKey ?? null }));
  stageCutGivenBack(batch, { kioskId: transaction.get('kioskId'), read }, claim.recorded, award.breakdown);
  if (claim.keyRef) {
    batch.create(claim.keyRef, newRequestRecord({ submissionId, requestFingerprint: claim.fingerprint }));
  }
  const recorded = { ...recordedTransactionOf(transaction), ...credited, claimedAt };
  return { success: true, transaction: stageEarned(batch, transactionRef.id, recorded), pushNotification: pushQueued };
}

/** The hold reasons an anonymous deposit was recorded with (its kiosk's, §17): a claim holds it for them too. */
export const recordedHoldReasons = (transaction: DocumentSnapshot): HoldReason[] =>
  recordedTransactionOf(transaction).holdReasons;

/** `reasons` once each, in the order a hold lists them. */
export const inHoldOrder = (reasons: HoldReason[]): HoldReason[] =>
  HOLD_REASONS.filter((reason) => reasons.includes(reason));

/**
 * What the claimer's daily cap cut off a promotion's points (§16) goes back to its
 * budget, so that its `pointsGiven` stays the sum of the transactions' breakdowns: to
 * the shard the deposit took from first (homeShard of its kiosk, as recordAnonymous
 * reads the budgets) of the promotion's revision as read, by a blind decrement that a
 * concurrent award's precondition sees (and that fails if a change replaced the shard).
 */
function stageCutGivenBack(
  batch: WriteBatch,
  { kioskId, read }: { kioskId: string; read: (ref: DocumentReference) => DocumentSnapshot | undefined },
  recorded: readonly BreakdownEntry[],
  awarded: readonly BreakdownEntry[],
): void {
  const kept = pointsByPromotion(awarded);
  for (const [promotionId, points] of pointsByPromotion(recorded)) {
    const cut = points - (kept.get(promotionId) ?? 0);
    const promotion = read(promotionsCollection().doc(promotionId));
    if (cut > 0 && promotion?.exists) {
      const shard = shardRef({ id: promotionId, revision: promotion.get('revision') }, homeShard(kioskId));
      batch.update(shard, { given: FieldValue.increment(-cut) });
    }
  }
}

/**
 * Stages an anonymous deposit (§18): its transaction, worth `breakdown` and credited to
 * nobody, with a new claim code valid `validDays` after it happened, and the code's
 * lookup document. The code is drawn anew on every attempt: a commit that landed is
 * found by its transaction first, and two codes alike (2^-60) fail the create and
 * are drawn again.
 */
export function stageUnclaimed(
  batch: WriteBatch,
  { deposit, fingerprint, transactionRef }: PlannedAward,
  breakdown: BreakdownEntry[],
  origin: {
    submissionId: string;
    apiKeyId: string;
    validDays: number;
    holdReasons: HoldReason[];
    kioskPlace: Place | undefined;
  },
): TransactionResult {
  const { kioskId, plasticCount, metalCount, happenedAt, idempotencyKey } = deposit;
  const code = newClaimCode();
  const recorded: RecordedTransaction = {
    userId: null,
    kioskId,
    plasticCount,
    metalCount,
    totalItems: plasticCount + metalCount,
    pointsEarned: breakdown.reduce((sum, entry) => sum + entry.points, 0),
    capped: false,
    balanceBefore: null,
    newBalance: null,
    occurredAt: happenedAt,
    idempotencyKey: idempotencyKey ?? null,
    requestFingerprint: idempotencyKey ? fingerprint : null,
    submissionId: origin.submissionId,
    apiKeyId: origin.apiKeyId,
    pushQueued: false,
    status: 'unclaimed',
    holdReasons: origin.holdReasons,
    breakdown,
    kioskPlace: origin.kioskPlace,
    claim: { code, expiresAt: claimExpiry(happenedAt, origin.validDays) },
  };
  batch.create(transactionRef, newTransaction(recorded));
  const claimed = {
    transactionId: transactionRef.id,
    kioskId,
    plasticCount,
    metalCount,
    occurredAt: happenedAt,
    breakdown,
  };
  batch.create(claimCodeRef(code), newClaimCodeEntry(claimed));
  return { success: true, transaction: transactionView(transactionRef.id, recorded), pushNotification: false };
}
