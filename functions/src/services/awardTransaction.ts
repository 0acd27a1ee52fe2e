import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { logInfo } from '../log';
import { commitOptimistically, db } from '../adapters/firestore';
import { depositKioskFromSnapshot, kiosksCollection, reportInvalidKiosk } from '../data/kiosks';
import { loadRewardsConfig } from '../data/rewardsConfig';
import {
  newTransaction,
  transactionResultFromSnapshot,
  transactionsCollection,
  type TransactionResult,
} from '../data/transactions';
import { userFromSnapshot, usersCollection } from '../data/users';
import { IDEMPOTENCY_TTL_MS, idempotencyRecordId, requestFingerprint } from '../domain/idempotency';
import { createKeyedQueue } from '../domain/keyedQueue';
import { computeAward } from '../domain/rewards';
import { ApiError, conflict, notFound } from '../errors';

export interface TransactionSubmission {
  kioskId: string;
  userId: string;
  plasticCount: number;
  metalCount: number;
}

interface IdempotencyRecord {
  kioskId: string;
  fingerprint: string;
  response: TransactionResult;
  expireAt: Timestamp;
}

/**
 * Awards to one user commit one at a time within this instance. Concurrent awards
 * to one user would otherwise race: all but one lose the precondition, re-read and
 * try again, which `npm run bench` measured halving an instance's throughput when
 * ~6 awards per user are in flight (10 users, 64 connections). Across instances
 * the precondition decides; outcomes are the same either way.
 */
const oneAtATimePerUser = createKeyedQueue();
const idempotencyCollection = () => db().collection('idempotency');
/** How soon a kiosk whose record an operator must repair is asked to try again. */
const KIOSK_REPAIR_RETRY_SECONDS = 300;

/**
 * Records a transaction and awards its points in one atomic commit, guarded by a
 * precondition on the user document, so concurrent submissions never lose an
 * award. With an idempotency key the stored response of the first success is
 * returned for every repeat within 24 h; a concurrent duplicate loses the race on
 * the idempotency record, re-reads, and then finds that record.
 *
 * The transaction id is chosen once per submission and every attempt creates that
 * same document, so one submission records at most one transaction, whatever the
 * network or the SDK's own retries do (see commitOptimistically).
 *
 * The kiosk is read outside the commit: its counters change on every transaction
 * (the trigger), and a status read a moment earlier is good enough to accept one.
 */
export async function awardTransaction(
  submission: TransactionSubmission,
  origin: { apiKeyId: string; idempotencyKey?: string },
): Promise<{ result: TransactionResult; replayed: boolean }> {
  const { kioskId, userId, plasticCount, metalCount } = submission;
  const { idempotencyKey } = origin;
  const fingerprint = requestFingerprint(submission);
  const userRef = usersCollection().doc(userId);
  const transactionRef = transactionsCollection().doc();
  const idempotencyRef = idempotencyKey
    ? idempotencyCollection().doc(idempotencyRecordId(kioskId, idempotencyKey))
    : undefined;

  const [config, kiosk] = await Promise.all([
    loadRewardsConfig(),
    kiosksCollection().doc(kioskId).get().then(depositKioskFromSnapshot),
  ]);

  const outcome = await oneAtATimePerUser(userId, () =>
    commitOptimistically(
      transactionRef,
      async (batch) => {
        const [userSnap, idempotencySnap] = await db().getAll(userRef, ...(idempotencyRef ? [idempotencyRef] : []));
        const previous = idempotencySnap?.data() as IdempotencyRecord | undefined;
        if (previous !== undefined && previous.expireAt.toMillis() > Date.now()) {
          if (previous.fingerprint !== fingerprint) {
            throw new ApiError(
              422,
              'idempotency-key-reused',
              'This Idempotency-Key was already used with a different request body',
            );
          }
          return { result: { result: previous.response, replayed: true }, commit: false };
        }

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

        const award = computeAward(config, user, { plasticCount, metalCount }, new Date());
        if (!award.withinDailyCap) {
          throw new ApiError(
            409,
            'daily-cap-reached',
            `This transaction would take user ${userId} past the daily limit of ${config.dailyPointsCap} points; ` +
              'nothing was awarded. The limit resets at midnight UTC',
          );
        }
        const pushQueued = user.pushToken !== undefined;
        const recorded = {
          userId,
          kioskId,
          plasticCount,
          metalCount,
          totalItems: award.totalItems,
          pointsEarned: award.pointsEarned,
          newBalance: award.currentPoints,
        };
        batch.create(
          transactionRef,
          newTransaction({
            ...recorded,
            balanceBefore: award.balanceBefore,
            idempotencyKey: idempotencyKey ?? null,
            apiKeyId: origin.apiKeyId,
            pushQueued,
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
            earnedToday: award.earnedToday,
          },
          { lastUpdateTime: userSnap.updateTime! },
        );
        const result: TransactionResult = {
          success: true,
          transaction: { id: transactionRef.id, ...recorded },
          pushNotification: pushQueued,
        };
        if (idempotencyRef) {
          const record = {
            kioskId,
            fingerprint,
            response: result,
            createdAt: FieldValue.serverTimestamp(),
            expireAt: Timestamp.fromMillis(Date.now() + IDEMPOTENCY_TTL_MS),
          };
          // create() makes a concurrent twin lose the race (and then replay this
          // record); an expired record still awaiting TTL deletion is replaced.
          if (previous) batch.set(idempotencyRef, record);
          else batch.create(idempotencyRef, record);
        }
        return { result: { result, replayed: false }, commit: true };
      },
      (landed) => ({ result: transactionResultFromSnapshot(landed), replayed: false }),
    ),
  );

  logInfo(outcome.replayed ? 'transaction_replayed' : 'transaction_awarded', {
    transactionId: outcome.result.transaction.id,
    kioskId,
    userId,
    pointsEarned: outcome.result.transaction.pointsEarned,
  });
  return outcome;
}
