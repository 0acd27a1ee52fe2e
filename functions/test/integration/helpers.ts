import functionsTest from 'firebase-functions-test';
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { db } from '../../src/adapters/firestore';
import { kioskDayIncrement, kioskDayRef } from '../../src/data/kioskDays';
import { issueKey } from '../../src/data/kioskKeys';
import { kiosksCollection, newKiosk } from '../../src/data/kiosks';
import { newTransaction, transactionsCollection, type RecordedTransaction } from '../../src/data/transactions';
import { newProfile, usersCollection } from '../../src/data/users';
import type { KioskStatus } from '../../src/domain/kiosk';
import type { KioskDayRow } from '../../src/domain/kioskDays';
import { DEFAULT_REWARDS, pointsFor } from '../../src/domain/rewards';
import { idTokenFor } from '../harness/auth';
import { apiUrl, emulatorsFromEnv, setBackgroundTriggers } from '../harness/emulators';
import * as wait from '../harness/wait';
import { assertDescribed } from './response-check';

// The emulators were found by global-setup.ts before any test file runs.
const emulators = emulatorsFromEnv();
export const PROJECT_ID = emulators.projectId;

/** firebase-functions-test, to run a function's handler in-process (wrap); cleaned up after the file's tests. */
export function functionsTestEnv(): ReturnType<typeof functionsTest> {
  const env = functionsTest({ projectId: PROJECT_ID });
  afterAll(() => env.cleanup());
  return env;
}
/** Without the functions emulator (a test file run by hand on Firestore and Auth only), requests to the api fail to resolve this host. */
export const API_URL = emulators.functions ? apiUrl(emulators) : 'http://no-functions-emulator.invalid';

export { clearEmulators as resetEmulators, setBackgroundTriggers } from '../harness/emulators';

/**
 * For the tests of the describe block it is called in: background triggers off (the
 * test runs the trigger's work itself), and on again after each.
 */
export function withoutBackgroundTriggers(): void {
  beforeEach(() => setBackgroundTriggers(false));
  afterEach(() => setBackgroundTriggers(true));
}
export { waitFor } from '../harness/wait';
export { db, idTokenFor };

export interface ApiCall {
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  /** Parsed JSON; loosely typed because each test asserts the shape it expects. */
  body: any;
  text: string;
}

export async function call(method: string, path: string, options: ApiCall = {}): Promise<ApiResult> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined = options.rawBody;
  if (payload === undefined && options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${API_URL}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const result = { status: response.status, headers: response.headers, body, text };
  assertDescribed(method, path, result, { body: options.rawBody === undefined ? options.body : undefined, headers });
  return result;
}

/** Where the transaction trigger stands for every stored transaction (for a timeout's explanation). */
export const describeTransactionEffects = (): Promise<string> =>
  wait.describeTransactionEffects(transactionsCollection());

let counter = 0;
/** Ids unique across the run, so a late trigger of an earlier test never lands on a later test's data. */
export const uniqueId = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export async function seedKiosk(
  fields: Partial<{
    id: string;
    name: string;
    status: KioskStatus;
    openingHours: string;
    timezone: string;
    latitude: number;
    longitude: number;
  }> = {},
): Promise<string> {
  const id = fields.id ?? uniqueId('kiosk');
  await kiosksCollection()
    .doc(id)
    .set(
      newKiosk({
        name: fields.name ?? 'Test Kiosk',
        address: 'Alexanderplatz 1, Berlin',
        status: fields.status,
        location: { latitude: fields.latitude ?? 52.52, longitude: fields.longitude ?? 13.405 },
        openingHours: fields.openingHours,
        timezone: fields.timezone ?? 'Europe/Berlin',
      }),
    );
  return id;
}

export async function seedKioskWithKey(fields: Parameters<typeof seedKiosk>[0] = {}) {
  const kioskId = await seedKiosk(fields);
  const { apiKey, keyId } = await issueKey(kioskId, 'test');
  return { kioskId, apiKey, keyId };
}

export async function seedUser(
  fields: Partial<{ id: string; name: string; currentPoints: number; totalPoints: number; pushToken: string }> = {},
): Promise<string> {
  const id = fields.id ?? uniqueId('user');
  await usersCollection()
    .doc(id)
    .set(newProfile({ ...fields, name: fields.name ?? 'Test User' }, DEFAULT_REWARDS));
  return id;
}

/**
 * A recorded transaction, by default of 2 plastic and 1 metal item (40 points) for a
 * user who had none, stored as an award stores it; for tests that drive the trigger
 * by hand. `occurredAt` is when the kiosk took the deposit; `createdAt` replaces the
 * server's time of recording (a transaction recorded minutes ago).
 */
export async function seedTransaction(
  kioskId: string,
  userId: string,
  fields: Partial<{ plasticCount: number; metalCount: number; occurredAt: Date; createdAt: Date }> = {},
) {
  const transactionId = uniqueId('tx');
  const { plasticCount = 2, metalCount = 1 } = fields;
  const pointsEarned = pointsFor(DEFAULT_REWARDS, plasticCount, metalCount);
  const recorded: RecordedTransaction = {
    userId,
    kioskId,
    plasticCount,
    metalCount,
    totalItems: plasticCount + metalCount,
    pointsEarned,
    capped: false,
    balanceBefore: 0,
    newBalance: pointsEarned,
    occurredAt: fields.occurredAt ?? new Date(),
    idempotencyKey: null,
    requestFingerprint: null,
    submissionId: 'test-submission',
    apiKeyId: 'test-key',
    pushQueued: false,
  };
  await transactionsCollection()
    .doc(transactionId)
    .set({
      ...newTransaction(recorded),
      ...(fields.createdAt && { createdAt: Timestamp.fromDate(fields.createdAt) }),
    });
  return { transactionId, recorded };
}

/** A daily report row of `transactions` transactions of 2 plastic and 1 metal item (40 points) each. */
export const kioskDayRow = (kioskId: string, day: string, transactions: number): KioskDayRow => ({
  kioskId,
  day,
  transactions,
  plasticCount: 2 * transactions,
  metalCount: transactions,
  points: 40 * transactions,
});

/** Stores daily figures as the trigger's folds store them. */
export async function seedKioskDays(rows: readonly KioskDayRow[]): Promise<void> {
  await Promise.all(
    rows.map(({ kioskId, day, ...figures }) =>
      kioskDayRef(kioskId, day).set(kioskDayIncrement(kioskId, day, figures), { merge: true }),
    ),
  );
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The Authorization header of `uid`, signed in (with `claims`, if any). */
export const bearerFor = async (uid: string, claims?: Record<string, unknown>) => bearer(await idTokenFor(uid, claims));

export async function adminHeaders(): Promise<Record<string, string>> {
  return bearerFor(uniqueId('admin'), { admin: true });
}

/** The Authorization header of a fresh signed-in account without the admin claim (nor a profile). */
export async function nonAdminHeaders(): Promise<Record<string, string>> {
  return bearerFor(uniqueId('user'));
}

/** Waits for the transaction trigger to finish and returns the transaction document. */
export async function waitForEffects(transactionId: string, timeoutMs = 30_000) {
  const [snapshot] = await wait.waitForEffects(transactionsCollection(), [transactionId], { timeoutMs });
  return snapshot.data()!;
}

/**
 * Waits until the transaction trigger has counted at least `items` items (plastic and
 * metal) on kiosk `kioskId` and returns the kiosk; at least, so that a double count
 * returns at once for the test to fail on rather than run into the timeout.
 */
export async function waitForKioskCount(kioskId: string, items: number, timeoutMs = 30_000) {
  const kiosk = async () => (await kiosksCollection().doc(kioskId).get()).data()!;
  const counted = (data: DocumentData): number => data.plasticCount + data.metalCount;
  return wait.waitFor(
    `kiosk ${kioskId} to count ${items} items`,
    async () => {
      const data = await kiosk();
      return counted(data) >= items ? data : undefined;
    },
    timeoutMs,
    async () => `the kiosk counts ${counted(await kiosk())} of ${items} items; ${await describeTransactionEffects()}`,
  );
}

/** A kiosk with its key, and a user with no points yet. */
export async function seedKioskAndUser(): Promise<{ kioskId: string; apiKey: string; userId: string }> {
  const { kioskId, apiKey } = await seedKioskWithKey();
  return { kioskId, apiKey, userId: await seedUser() };
}
