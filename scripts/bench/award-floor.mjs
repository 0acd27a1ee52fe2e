// @ts-check
// The Firestore floor of an award, as src/services/awardTransaction.ts does it: the
// kiosk key read (authentication), config and kiosk read, then the user, the keyed
// transaction document and the legacy 24-hour record read in one getAll, then one
// commit creating the transaction under its keyed id and crediting the user
// (earnedByDay for the deposit's day, earnedToday removed) with a precondition. And
// the batch endpoint's floor: the key read once, then each item's award work side by
// side, and the envelope of results.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');
const { FieldValue, Timestamp } = requireFn('firebase-admin/firestore');

/**
 * The ids as the service builds them (keyedTransactionId and legacyIdempotencyRecordId
 * of src/domain/idempotency.ts), written out rather than called: the award floor is
 * CPU-profiled in the same-host floor (sections/cpu-profile.mjs), where a call into
 * functions/lib would be charged to the service's code.
 */
const sha256 = (/** @type {string} */ text) => createHash('sha256').update(text).digest('hex');
const keyedTransactionId = (/** @type {string} */ kioskId, /** @type {string} */ key) =>
  sha256(JSON.stringify([kioskId, key]));
const legacyRecordId = (/** @type {string} */ kioskId, /** @type {string} */ key) => sha256(`${kioskId}:${key}`);

/**
 * @typedef {{ id: string, keyId: string }} FloorKiosk
 * @typedef {{ kioskId: string, userId: string, plasticCount: number, metalCount: number }} FloorDeposit
 */

/**
 * The kiosk key's read, as every kiosk request authenticates.
 * @param {FloorKiosk} kiosk
 */
export const kioskKeyFloor = async (kiosk) => (await db().collection('kioskKeys').doc(kiosk.keyId).get()).data();

/**
 * One deposit's award work after authentication; resolves with the transaction as answered.
 * @param {FloorKiosk} kiosk
 * @param {FloorDeposit} deposit
 * @param {string} key its Idempotency-Key
 */
export async function awardWorkFloor(kiosk, deposit, key) {
  (await Promise.all([db().doc('config/rewards').get(), db().collection('kiosks').doc(kiosk.id).get()])).map(
    (/** @type {any} */ snap) => snap.data(),
  );
  const userRef = db().collection('users').doc(deposit.userId);
  const transactionRef = db().collection('transactions').doc(keyedTransactionId(kiosk.id, key));
  const legacyRef = db().collection('idempotency').doc(legacyRecordId(kiosk.id, key));
  const [userSnap, recordedSnap, legacySnap] = await db().getAll(userRef, transactionRef, legacyRef);
  recordedSnap.data();
  legacySnap.data();
  const occurredAt = new Date();
  const day = occurredAt.toISOString().slice(0, 10);
  const points = deposit.plasticCount * 10 + deposit.metalCount * 20;
  const current = userSnap.get('currentPoints') ?? 0;
  const transaction = {
    id: transactionRef.id,
    ...deposit,
    totalItems: deposit.plasticCount + deposit.metalCount,
    pointsEarned: points,
    capped: false,
    newBalance: current + points,
    occurredAt: occurredAt.toISOString(),
  };
  const { id: _id, occurredAt: _occurredAt, ...recorded } = transaction;
  const batch = db().batch();
  batch.create(transactionRef, {
    ...recorded,
    balanceBefore: current,
    occurredAt: Timestamp.fromDate(occurredAt),
    idempotencyKey: key,
    requestFingerprint: 'x',
    submissionId: 'floor',
    apiKeyId: kiosk.keyId,
    pushQueued: userSnap.get('pushToken') !== undefined,
    createdAt: FieldValue.serverTimestamp(),
  });
  // The transaction's earn entry in the ledger, in the same commit.
  batch.create(db().collection('ledger').doc(transactionRef.id), {
    userId: deposit.userId,
    kind: 'earn',
    points,
    balanceAfter: current + points,
    transaction: {
      id: transactionRef.id,
      kioskId: deposit.kioskId,
      plasticCount: deposit.plasticCount,
      metalCount: deposit.metalCount,
      occurredAt: Timestamp.fromDate(occurredAt),
    },
    createdAt: FieldValue.serverTimestamp(),
  });
  batch.update(
    userRef,
    {
      currentPoints: current + points,
      totalPoints: (userSnap.get('totalPoints') ?? 0) + points,
      recycledCount: (userSnap.get('recycledCount') ?? 0) + transaction.totalItems,
      rank: 'Bronze',
      earnedByDay: { [day]: (userSnap.get('earnedByDay')?.[day] ?? 0) + points },
      earnedToday: FieldValue.delete(),
    },
    { lastUpdateTime: userSnap.updateTime },
  );
  await batch.commit();
  return transaction;
}

/**
 * POST /kiosk/transactions/batch's floor: the key read once, the items' award work
 * side by side, the envelope of results.
 * @param {FloorKiosk} kiosk
 * @param {(FloorDeposit & { idempotencyKey: string })[]} items
 */
export async function batchFloor(kiosk, items) {
  await kioskKeyFloor(kiosk);
  const transactions = await Promise.all(
    items.map(({ idempotencyKey, ...deposit }) => awardWorkFloor(kiosk, deposit, idempotencyKey)),
  );
  return {
    success: true,
    results: transactions.map((transaction, i) => ({
      idempotencyKey: items[i].idempotencyKey,
      status: 200,
      transaction,
      pushNotification: false,
      replayed: false,
    })),
  };
}
