import { FieldValue, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';

export const transactionsCollection = () => db().collection('transactions');

/** What an award records; the trigger adds `effects` later. */
export interface RecordedTransaction {
  userId: string;
  kioskId: string;
  plasticCount: number;
  metalCount: number;
  totalItems: number;
  pointsEarned: number;
  balanceBefore: number;
  newBalance: number;
  idempotencyKey: string | null;
  /** The kiosk key that submitted it (its SHA-256), for tracing a leaked key. */
  apiKeyId: string;
  /** Whether the user had a push token when it was recorded (the response's `pushNotification`). */
  pushQueued: boolean;
}

/** What a kiosk is told about a recorded transaction (the body of POST /kiosk/transaction). */
export interface TransactionResult {
  success: true;
  transaction: { id: string } & Pick<
    RecordedTransaction,
    'userId' | 'kioskId' | 'plasticCount' | 'metalCount' | 'totalItems' | 'pointsEarned' | 'newBalance'
  >;
  pushNotification: boolean;
}

/** A transactions/{id} document as first stored; the one place one is written out. */
export const newTransaction = (transaction: RecordedTransaction): DocumentData => ({
  ...transaction,
  createdAt: FieldValue.serverTimestamp(),
});

/**
 * The answer for a transaction as it was recorded, read from its document: a commit
 * whose answer was lost is reported from what actually landed, never from what was
 * staged.
 */
export function transactionResultFromSnapshot(snapshot: DocumentSnapshot): TransactionResult {
  const data = snapshot.data();
  if (!data) throw new Error(`transaction ${snapshot.id} does not exist`);
  return {
    success: true,
    transaction: {
      id: snapshot.id,
      userId: data.userId,
      kioskId: data.kioskId,
      plasticCount: data.plasticCount,
      metalCount: data.metalCount,
      totalItems: data.totalItems,
      pointsEarned: data.pointsEarned,
      newBalance: data.newBalance,
    },
    pushNotification: data.pushQueued === true,
  };
}
