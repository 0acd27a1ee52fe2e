import { Agent } from 'node:https';
import { applicationDefault, getApps, initializeApp, type AppOptions } from 'firebase-admin/app';
import {
  FieldValue,
  getFirestore,
  type DocumentData,
  type DocumentReference,
  type DocumentSnapshot,
  type Firestore,
  type Transaction,
  type UpdateData,
  type WriteBatch,
} from 'firebase-admin/firestore';
import { overloaded } from '../errors';
import { callTimingOn, timeFirestoreCalls } from './callTiming';
import { logWarn } from '../log';
import { GOOGLE_CALL_IDLE_TIMEOUT_MS, withIdleTimeout } from './googleHttp';

let firestore: Firestore | undefined;

/** Where staging code reads: a Firestore transaction (locking) or the database (for an optimistic commit). */
export interface StagedReads {
  getAll(...refs: DocumentReference[]): Promise<DocumentSnapshot[]>;
}

/** Where staging code writes: a Firestore transaction or a batch. */
export interface StagedWrites {
  create(ref: DocumentReference, data: DocumentData): unknown;
  update(ref: DocumentReference, data: UpdateData<DocumentData>): unknown;
}

/**
 * Deployed, firebase-admin's calls to Google get a socket idle timeout (see
 * googleHttp.ts). The credential is named explicitly so that it keeps its own
 * transport (the metadata server is plain HTTP, which an https agent refuses). On
 * the emulators firebase-admin talks plain HTTP to the Auth emulator: no agent there.
 * Options given explicitly replace what initializeApp() reads from FIREBASE_CONFIG
 * (the project id, set by the deploy), so that is read here too.
 */
export function adminAppOptions(): AppOptions | undefined {
  if (process.env.FIREBASE_AUTH_EMULATOR_HOST) return undefined;
  const deployed = process.env.FIREBASE_CONFIG?.trim();
  return {
    ...(deployed?.startsWith('{') && (JSON.parse(deployed) as AppOptions)),
    credential: applicationDefault(),
    httpAgent: withIdleTimeout(new Agent({ keepAlive: true }), GOOGLE_CALL_IDLE_TIMEOUT_MS),
  };
}

export function adminApp() {
  return getApps()[0] ?? initializeApp(adminAppOptions());
}

export function db(): Firestore {
  if (!firestore) {
    firestore = getFirestore(adminApp());
    // Optional fields are left out of writes rather than stored as undefined.
    firestore.settings({ ignoreUndefinedProperties: true });
    if (callTimingOn) timeFirestoreCalls(firestore);
  }
  return firestore;
}

const ALREADY_EXISTS = 6;
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const INVALID_ARGUMENT = 3;
/**
 * How long contention (lost races, ABORTED, a commit that timed out) may hold one
 * write up before the service gives it up as overloaded: 503 `overloaded` with
 * Retry-After, nothing written. A setting of this module so a test can make it run
 * out in a second rather than half a minute.
 */
export const contention = { deadlineMs: 30_000 };
/**
 * The codes on which the Admin SDK itself runs a transaction again (its
 * isRetryableTransactionError): ABORTED (contention), CANCELLED, UNKNOWN,
 * DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE, UNAUTHENTICATED.
 */
const RETRYABLE_TRANSACTION_CODES: ReadonlySet<unknown> = new Set([10, 1, 2, 4, 8, 13, 14, 16]);

const codeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

export const isAlreadyExists = (error: unknown): boolean => codeOf(error) === ALREADY_EXISTS;

/**
 * Worth running the transaction again: what the SDK would retry, or a commit whose
 * answer was lost. In the latter case the SDK sends the commit again by itself, and
 * Firestore answers that the transaction is closed (the first send committed it, or
 * the server dropped it): the outcome is unknown, and only a fresh run can tell.
 */
const isRetryableTransactionFailure = (error: unknown): boolean =>
  RETRYABLE_TRANSACTION_CODES.has(codeOf(error)) ||
  (codeOf(error) === INVALID_ARGUMENT &&
    /transaction is invalid or closed|transaction has expired/i.test(String((error as Error).message)));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const diagnosticsCollection = () => db().collection('diagnostics');

/**
 * On the emulator suite only, records a named event as a document of `diagnostics`,
 * beside its log entry: the tests run in another process than the functions and
 * cannot read the functions' logs, and some of them must count events (contention
 * retries, writes to hot documents). Never written when deployed.
 */
export async function recordOnEmulator(event: string, fields: Record<string, unknown>): Promise<void> {
  if (process.env.FUNCTIONS_EMULATOR !== 'true') return;
  await diagnosticsCollection()
    .add({ event, ...fields, function: process.env.FUNCTION_TARGET ?? null, at: FieldValue.serverTimestamp() })
    .catch(() => undefined);
}

/*
 * Three ways to write, by when each is the one to use: runTransaction (reads that
 * must hold still until the commit, where few write at once: claims, settings, a
 * kiosk's record), commitOnFreshReads (documents many writers change at once), and
 * createUnderOwnId (one new document, nothing read). A single write that needs
 * none of them is the SDK's own `set`/`update`.
 */

/**
 * **When:** reads that must not change before the commit, on documents few write at
 * once: claim-then-act of side effects, settings and records an operator edits,
 * rate-limit buckets. Under a burst on one document use commitOnFreshReads instead.
 *
 * The SDK's runTransaction gives up after 5 attempts, which a burst of kiosks writing
 * to one user reaches ("Transaction lock timeout"). Contention is the service's
 * problem, never the kiosk's: keep retrying with jittered backoff until a deadline.
 * Errors thrown by `body` itself (ApiError and the like) are not retried.
 *
 * Every retry is this loop's (the SDK is given one attempt), so each one is logged
 * as `transaction_retried` with its attempt and gRPC code: contention shows in the
 * logs instead of hiding inside the SDK.
 *
 * A body may run again after its own commit landed (a lost answer, retried by the
 * SDK or here), so every body must recognise its own earlier write: an id chosen
 * once per call, outside the body, or writes that are the same when repeated.
 */
export async function runTransaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T> {
  const deadline = Date.now() + contention.deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().runTransaction(body, { maxAttempts: 1 });
    } catch (error) {
      if (!isRetryableTransactionFailure(error)) throw error;
      if (Date.now() > deadline) throw givenUp(error);
      const code = codeOf(error);
      logWarn('transaction_retried', { attempt, code });
      await recordOnEmulator('transaction_retried', { attempt, code: code ?? null });
      await pause(backoffMs(attempt));
    }
  }
}

/** Jittered, doubling from 50 ms to at most 1 s. */
const backoffMs = (attempt: number) => Math.random() * Math.min(1000, 50 * 2 ** (attempt - 1));

/** The answer to contention that outlasted the deadline: 503 overloaded, logged with its last gRPC code. */
function givenUp(error: unknown) {
  logWarn('contention_given_up', { code: codeOf(error) ?? null, deadlineMs: contention.deadlineMs });
  return overloaded();
}

/**
 * **When:** one new document under an id that only this call knows (a random id),
 * nothing read first: a queued push, a kiosk key.
 *
 * Creates a document under an id that only this call knows (a random id). When the
 * write lands but its answer is lost, the SDK sends it again and that second attempt
 * fails with ALREADY_EXISTS: under such an id, that means our own write is there.
 */
export async function createUnderOwnId(ref: DocumentReference, data: DocumentData): Promise<void> {
  try {
    await ref.create(data);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}

/** A write whose precondition failed: someone else wrote first (or our own earlier send landed). */
export const isLostRace = (error: unknown): boolean => codeOf(error) === FAILED_PRECONDITION || isAlreadyExists(error);

/**
 * **When:** a read-modify-write of documents many writers change at once (a user
 * credited by many kiosks, a kiosk's liveness): the award, redemptions, adjustments,
 * status reports. `stage` reads without locks and stages its writes guarded by
 * preconditions (`lastUpdateTime` of what it read, `create` for what must not exist
 * yet), or answers `commit: false` when there is nothing to write (its own writes
 * already there among them). The batch commits atomically or not at all; no lock is
 * held between the read and the commit, so a burst never deadlocks: each round, one
 * contender wins. Its writes must be the same when repeated, or creates that `stage`
 * reads back and knows as its own by an id chosen once per call (an award's
 * `submissionId`).
 *
 * After any failed commit the outcome is unknown until read: a lost race, but also a
 * commit whose answer was lost (the SDK's resend fails on the first send's own
 * writes) or that timed out (DEADLINE_EXCEEDED, INTERNAL, CANCELLED: the SDK does not
 * resend those, and the write may have landed). So `stage` runs again on fresh reads
 * before anything is answered: it finds what landed and answers it, or stages the
 * writes again (the same ids, so at most one of the attempts can ever land). Past the
 * contention deadline, what has not landed is given up: 503 overloaded.
 */
export async function commitOnFreshReads<T>(
  stage: (batch: WriteBatch) => Promise<{ result: T; commit: boolean }>,
): Promise<T> {
  const deadline = Date.now() + contention.deadlineMs;
  let failure: unknown;
  for (let attempt = 1; ; attempt++) {
    if (failure !== undefined && isRetryableCommitFailure(failure)) {
      await pause(isLostRace(failure) ? Math.random() * 25 : backoffMs(attempt));
    }
    const batch = db().batch();
    const { result, commit } = await stage(batch);
    if (!commit) return result;
    if (failure !== undefined) {
      // Not landed: a failure that says nothing of contention is the caller's, as it is.
      if (!isRetryableCommitFailure(failure)) throw failure;
      if (Date.now() > deadline) throw givenUp(failure);
    }
    try {
      await batch.commit();
      return result;
    } catch (error) {
      failure = error;
    }
  }
}

/**
 * A failed commit worth staging again: a lost race, an update of a document deleted since
 * the read (a promotion's budget shard, replaced by its change), or what the SDK would
 * retry in a transaction.
 */
const isRetryableCommitFailure = (error: unknown): boolean =>
  isLostRace(error) || codeOf(error) === NOT_FOUND || isRetryableTransactionFailure(error);
