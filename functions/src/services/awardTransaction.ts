import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import * as logger from 'firebase-functions/logger';
import { db, runTransaction } from '../adapters/firestore';
import { kiosksCollection, kioskFromSnapshot } from '../data/kiosks';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { userFromSnapshot, usersCollection } from '../data/users';
import { IDEMPOTENCY_TTL_MS, idempotencyRecordId, requestFingerprint } from '../domain/idempotency';
import { computeAward } from '../domain/rewards';
import { ApiError, conflict, notFound } from '../errors';

export interface TransactionSubmission {
  kioskId: string;
  userId: string;
  plasticCount: number;
  metalCount: number;
}

export interface TransactionResult {
  success: true;
  transaction: {
    id: string;
    userId: string;
    kioskId: string;
    plasticCount: number;
    metalCount: number;
    totalItems: number;
    pointsEarned: number;
    newBalance: number;
  };
  pushNotification: boolean;
}

interface IdempotencyRecord {
  kioskId: string;
  fingerprint: string;
  response: TransactionResult;
  expireAt: Timestamp;
}

export const transactionsCollection = () => db().collection('transactions');
const idempotencyCollection = () => db().collection('idempotency');

const ALREADY_EXISTS = 6;

/**
 * Records a transaction and awards its points in one Firestore transaction, so
 * concurrent submissions never lose an award. With an idempotency key the stored
 * response of the first success is returned for every repeat within 24 h; a
 * concurrent duplicate loses the race on the idempotency record, retries, and then
 * finds that record.
 */
export async function awardTransaction(
  submission: TransactionSubmission,
  origin: { apiKeyId: string; idempotencyKey?: string },
): Promise<{ result: TransactionResult; replayed: boolean }> {
  const { kioskId, userId, plasticCount, metalCount } = submission;
  const { idempotencyKey } = origin;
  const fingerprint = requestFingerprint(submission);
  const config = await loadRewardsConfig();
  const kioskRef = kiosksCollection().doc(kioskId);
  const userRef = usersCollection().doc(userId);
  const idempotencyRef = idempotencyKey
    ? idempotencyCollection().doc(idempotencyRecordId(kioskId, idempotencyKey))
    : undefined;

  const attempt = () =>
    runTransaction(async (tx) => {
      const [kioskSnap, userSnap, idempotencySnap] = await tx.getAll(
        kioskRef,
        userRef,
        ...(idempotencyRef ? [idempotencyRef] : []),
      );
      const previous = idempotencySnap?.data() as IdempotencyRecord | undefined;
      const previousIsLive = previous !== undefined && previous.expireAt.toMillis() > Date.now();
      if (previousIsLive) {
        if (previous.fingerprint !== fingerprint) {
          throw new ApiError(
            422,
            'idempotency-key-reused',
            'This Idempotency-Key was already used with a different request body',
          );
        }
        return { result: previous.response, replayed: true };
      }

      const kiosk = kioskFromSnapshot(kioskSnap);
      if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
      const user = userFromSnapshot(userSnap);
      if (!user) throw notFound(`User ${userId} not found`);
      if (kiosk.status !== 'available') {
        throw conflict(`Kiosk ${kioskId} is ${kiosk.status} and cannot accept transactions`, 'kiosk-unavailable');
      }

      const award = computeAward(config, user, { plasticCount, metalCount });
      const transactionRef = transactionsCollection().doc();
      tx.create(transactionRef, {
        userId,
        kioskId,
        plasticCount,
        metalCount,
        totalItems: award.totalItems,
        pointsEarned: award.pointsEarned,
        balanceBefore: award.balanceBefore,
        newBalance: award.currentPoints,
        createdAt: FieldValue.serverTimestamp(),
        idempotencyKey: idempotencyKey ?? null,
        apiKeyId: origin.apiKeyId,
      });
      tx.update(userRef, {
        currentPoints: award.currentPoints,
        totalPoints: award.totalPoints,
        recycledCount: award.recycledCount,
        rank: award.rank,
      });
      const result: TransactionResult = {
        success: true,
        transaction: {
          id: transactionRef.id,
          userId,
          kioskId,
          plasticCount,
          metalCount,
          totalItems: award.totalItems,
          pointsEarned: award.pointsEarned,
          newBalance: award.currentPoints,
        },
        pushNotification: user.pushToken !== undefined,
      };
      if (idempotencyRef) {
        const record = {
          kioskId,
          fingerprint,
          response: result,
          createdAt: FieldValue.serverTimestamp(),
          expireAt: Timestamp.fromMillis(Date.now() + IDEMPOTENCY_TTL_MS),
        };
        // An expired record still waiting for TTL deletion is replaced; otherwise
        // create() makes a concurrent twin fail instead of awarding twice.
        if (previous) tx.set(idempotencyRef, record);
        else tx.create(idempotencyRef, record);
      }
      return { result, replayed: false };
    });

  for (let tries = 1; ; tries++) {
    try {
      const outcome = await attempt();
      logger.info(outcome.replayed ? 'transaction_replayed' : 'transaction_awarded', {
        transactionId: outcome.result.transaction.id,
        kioskId,
        userId,
        pointsEarned: outcome.result.transaction.pointsEarned,
      });
      return outcome;
    } catch (error) {
      const lostIdempotencyRace = (error as { code?: unknown }).code === ALREADY_EXISTS && tries < 3;
      if (!lostIdempotencyRace) throw error;
    }
  }
}
