import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore, type Transaction, type WriteBatch } from 'firebase-admin/firestore';

let firestore: Firestore | undefined;

export function adminApp() {
  return getApps()[0] ?? initializeApp();
}

export function db(): Firestore {
  if (!firestore) {
    firestore = getFirestore(adminApp());
    // Optional fields are left out of writes rather than stored as undefined.
    firestore.settings({ ignoreUndefinedProperties: true });
  }
  return firestore;
}

const ABORTED = 10;
const ALREADY_EXISTS = 6;
const FAILED_PRECONDITION = 9;
const TRANSACTION_DEADLINE_MS = 30_000;

const isContention = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ABORTED;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * runTransaction gives up after 5 attempts, which a burst of kiosks writing to one
 * user reaches ("Transaction lock timeout"). Contention is the service's problem,
 * never the kiosk's: keep retrying with jittered backoff until a deadline. Errors
 * thrown by `body` itself (ApiError and the like) are not retried.
 */
export async function runTransaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T> {
  const deadline = Date.now() + TRANSACTION_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db().runTransaction(body, { maxAttempts: 5 });
    } catch (error) {
      if (!isContention(error) || Date.now() > deadline) throw error;
      await pause(Math.random() * Math.min(1000, 50 * 2 ** attempt));
    }
  }
}

const isLostRace = (error: unknown): boolean => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === FAILED_PRECONDITION || code === ALREADY_EXISTS;
};

/**
 * Optimistic read-modify-write for hot documents (one user credited by many kiosks
 * at once). `stage` reads, then stages its writes on the batch with preconditions
 * (`lastUpdateTime` of what it read, `create` for what must not exist yet); the
 * batch commits atomically or not at all. A commit that lost the race re-reads and
 * tries again. Unlike runTransaction, no lock is held between the read and the
 * commit, so a burst never deadlocks: each round, one contender wins.
 */
export async function commitOptimistically<T>(
  stage: (batch: WriteBatch) => Promise<{ result: T; commit: boolean }>,
): Promise<T> {
  const deadline = Date.now() + TRANSACTION_DEADLINE_MS;
  for (;;) {
    const batch = db().batch();
    const { result, commit } = await stage(batch);
    if (!commit) return result;
    try {
      await batch.commit();
      return result;
    } catch (error) {
      if (!isLostRace(error) || Date.now() > deadline) throw error;
      await pause(Math.random() * 25);
    }
  }
}
