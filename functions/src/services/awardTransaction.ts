import { randomUUID } from 'node:crypto';
import { FieldValue, Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { logInfo } from '../log';
import { commitOptimistically, db } from '../adapters/firestore';
import { depositKioskFromSnapshot, kiosksCollection, reportInvalidKiosk } from '../data/kiosks';
import { loadRewardsConfig } from '../data/rewardsConfig';
import {
  newTransaction,
  transactionResultFromSnapshot,
  transactionView,
  transactionsCollection,
  type RecordedTransaction,
  type TransactionResult,
} from '../data/transactions';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { userFromSnapshot, usersCollection } from '../data/users';
import type { Deposit } from '../domain/deposit';
import { keyReused, keyedTransactionId, legacyIdempotencyRecordId, requestFingerprint } from '../domain/idempotency';
import { createKeyedQueue } from '../domain/keyedQueue';
import { computeAward } from '../domain/rewards';
import { ApiError, conflict, notFound } from '../errors';

export interface AwardOutcome {
  result: TransactionResult;
  replayed: boolean;
}

/**
 * Awards to one user commit one at a time within this instance. Concurrent awards
 * to one user would otherwise race: all but one lose the precondition, re-read and
 * try again, which `npm run bench` measured halving an instance's throughput when
 * ~6 awards per user are in flight (10 users, 64 connections). Across instances
 * the precondition decides; outcomes are the same either way.
 */
const oneAtATimePerUser = createKeyedQueue();
/** 24-hour records of the idempotency scheme before keyed transaction ids; read only. */
const legacyIdempotencyCollection = () => db().collection('idempotency');
/** How soon a kiosk whose record an operator must repair is asked to try again. */
const KIOSK_REPAIR_RETRY_SECONDS = 300;

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
 * Records a deposit and awards its points in one atomic commit (the transaction, its
 * `earn` ledger entry, the user's new balance), guarded by a precondition on the user
 * document, so concurrent submissions never lose an award.
 *
 * With an idempotency key the transaction's id is derived from kiosk and key, and
 * every submission of the key creates that one document: a later submission, at
 * any time, finds it and is answered with it (or 422 when its body differs); a
 * concurrent twin loses the create and then finds it. Without a key the id is
 * random, chosen once per submission. Either way one submission records at most one
 * transaction, whatever the network or the SDK's own retries do (see
 * commitOptimistically).
 *
 * The daily cap counts by the UTC day the deposit happened; past the cap the
 * deposit is still recorded, for the points left under it.
 *
 * The kiosk is read outside the commit: its counters change on every transaction
 * (the trigger), and a status read a moment earlier is good enough to accept one.
 */
export async function awardTransaction(
  deposit: Deposit,
  origin: { apiKeyId: string; idempotencyKey?: string; oldestAcceptedDay: string },
): Promise<AwardOutcome> {
  const { kioskId, userId, plasticCount, metalCount, happenedAt } = deposit;
  const { idempotencyKey } = origin;
  const fingerprint = fingerprintOf(deposit);
  const submissionId = randomUUID();
  const userRef = usersCollection().doc(userId);
  const transactionRef = idempotencyKey
    ? transactionsCollection().doc(keyedTransactionId(kioskId, idempotencyKey))
    : transactionsCollection().doc();
  const keyed = idempotencyKey
    ? [transactionRef, legacyIdempotencyCollection().doc(legacyIdempotencyRecordId(kioskId, idempotencyKey))]
    : [];

  /** The answer for a transaction recorded under this submission's id: its own, or an earlier one's. */
  const answerFor = (recorded: DocumentSnapshot): AwardOutcome => {
    const replayed = recorded.get('submissionId') !== submissionId;
    if (replayed && recorded.get('requestFingerprint') !== fingerprint) throw keyReused();
    return { result: transactionResultFromSnapshot(recorded), replayed };
  };

  const [config, kiosk] = await Promise.all([
    loadRewardsConfig(),
    kiosksCollection().doc(kioskId).get().then(depositKioskFromSnapshot),
  ]);

  const outcome = await oneAtATimePerUser(userId, () =>
    commitOptimistically(
      transactionRef,
      async (batch) => {
        const [userSnap, recordedSnap, legacySnap] = await db().getAll(userRef, ...keyed);
        if (recordedSnap?.exists) return { result: answerFor(recordedSnap), commit: false };
        if (legacySnap?.exists) return { result: legacyAnswer(legacySnap, fingerprint), commit: false };

        if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
        const user = userFromSnapshot(userSnap);
        if (!user) throw notFound(`User ${userId} not found`);
        if (kiosk.status === undefined) {
          // A kiosk with a status broken by hand may or may not be meant to take deposits
          // (its other fields do not matter to an award). Refused whole, and retryable: the
          // kiosk keeps the deposit and sends it again once an operator has mended it.
          reportInvalidKiosk(kioskId, ['status']);
          throw new ApiError(
            503,
            'kiosk-misconfigured',
            `Kiosk ${kioskId} cannot accept transactions until an operator repairs its record; nothing was awarded`,
            { 'Retry-After': String(KIOSK_REPAIR_RETRY_SECONDS) },
          );
        }
        if (kiosk.status !== 'available') {
          throw conflict(`Kiosk ${kioskId} is ${kiosk.status} and cannot accept transactions`, 'kiosk-unavailable');
        }

        const award = computeAward(config, user, { plasticCount, metalCount }, happenedAt, origin.oldestAcceptedDay);
        const pushQueued = user.pushToken !== undefined;
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
          submissionId,
          apiKeyId: origin.apiKeyId,
          pushQueued,
        };
        batch.create(transactionRef, newTransaction(recorded));
        // The transaction's one `earn` entry: under the transaction's own id, in the same commit.
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
        // The precondition is what makes concurrent awards safe: if anything changed
        // the user since the read, the whole commit fails and is recomputed.
        batch.update(
          userRef,
          {
            currentPoints: award.currentPoints,
            totalPoints: award.totalPoints,
            recycledCount: award.recycledCount,
            rank: award.rank,
            earnedByDay: award.earnedByDay,
            earnedToday: FieldValue.delete(),
          },
          { lastUpdateTime: userSnap.updateTime! },
        );
        const result: TransactionResult = {
          success: true,
          transaction: transactionView(transactionRef.id, recorded),
          pushNotification: pushQueued,
        };
        return { result: { result, replayed: false }, commit: true };
      },
      answerFor,
    ),
  );

  logInfo(outcome.replayed ? 'transaction_replayed' : 'transaction_awarded', {
    transactionId: outcome.result.transaction.id,
    kioskId,
    userId,
    pointsEarned: outcome.result.transaction.pointsEarned,
    capped: outcome.result.transaction.capped,
  });
  return outcome;
}

/**
 * A key first used before keyed transaction ids is answered from its 24-hour record
 * while the record exists. Such a transaction was never capped (the cap refused
 * then), and it happened when it was recorded.
 */
function legacyAnswer(record: DocumentSnapshot, fingerprint: string): AwardOutcome {
  if (record.get('fingerprint') !== fingerprint) throw keyReused();
  const stored = record.get('response') as Omit<TransactionResult, 'transaction'> & {
    transaction: Omit<TransactionResult['transaction'], 'capped' | 'occurredAt'>;
  };
  const createdAt = record.get('createdAt');
  const occurredAt = (createdAt instanceof Timestamp ? createdAt.toDate() : new Date()).toISOString();
  return { result: { ...stored, transaction: { ...stored.transaction, capped: false, occurredAt } }, replayed: true };
}
