import { getAuth } from 'firebase-admin/auth';
import { adminApp, db } from '../../src/adapters/firestore';
import { issueKey } from '../../src/data/kioskKeys';
import { kiosksCollection, newKiosk } from '../../src/data/kiosks';
import { newTransaction, transactionsCollection, type RecordedTransaction } from '../../src/data/transactions';
import { newProfile, usersCollection } from '../../src/data/users';
import type { KioskStatus } from '../../src/domain/kiosk';
import { DEFAULT_REWARDS } from '../../src/domain/rewards';
import { assertDescribed } from './response-check';

export const PROJECT_ID = process.env.GCLOUD_PROJECT!;
export const API_URL = `http://127.0.0.1:5001/${PROJECT_ID}/us-central1/api`;
const FIRESTORE = `http://${process.env.FIRESTORE_EMULATOR_HOST}`;
const AUTH = `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}`;
const HUB = 'http://127.0.0.1:4400';

export { db };

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

/**
 * Empties Firestore and Auth between tests. Firestore answers 409 while a
 * transaction of an earlier test's trigger still holds a lock, so that is retried.
 */
export async function resetEmulators(): Promise<void> {
  await waitFor('Firestore and Auth to clear', async () => {
    const [firestore, auth] = await Promise.all([
      fetch(`${FIRESTORE}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' }),
      fetch(`${AUTH}/emulator/v1/projects/${PROJECT_ID}/accounts`, { method: 'DELETE' }),
    ]);
    return firestore.ok && auth.ok ? true : undefined;
  });
}

export async function setBackgroundTriggers(enabled: boolean): Promise<void> {
  const action = enabled ? 'enableBackgroundTriggers' : 'disableBackgroundTriggers';
  const response = await fetch(`${HUB}/functions/${action}`, { method: 'PUT' });
  if (!response.ok) throw new Error(`${action} failed: ${response.status}`);
}

/**
 * Polls `probe` until it returns something other than undefined, or fails after
 * `timeoutMs`. `explain` describes the state at the timeout, so a failure in CI says
 * whether the work was slow, lost or done twice.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  explain?: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const state = explain ? `; ${await explain()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Where the transaction trigger stands for every stored transaction: how many have
 * their effects completed, how many were counted on their kiosk, and which are not.
 */
export async function describeTransactionEffects(): Promise<string> {
  const docs = (await db().collection('transactions').get()).docs;
  const pending = docs.filter((doc) => !doc.get('effects.completedAt'));
  const counted = docs.filter((doc) => doc.get('effects.kioskCounted') !== undefined).length;
  const oldestPending = pending.map((doc) => doc.createTime.toMillis()).sort((a, b) => a - b)[0];
  const age = oldestPending === undefined ? '' : `, oldest pending created ${Date.now() - oldestPending} ms ago`;
  return (
    `${docs.length} transactions: ${docs.length - pending.length} with effects completed, ${counted} counted on their kiosk` +
    `${age}; pending: ${pending.slice(0, 10).map((doc) => doc.id).join(', ') || 'none'}`
  );
}

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
 * A recorded transaction of 2 plastic and 1 metal item (40 points) for a user who had
 * none, stored as an award stores it; for tests that drive the trigger by hand.
 */
export async function seedTransaction(kioskId: string, userId: string) {
  const transactionId = uniqueId('tx');
  const recorded: RecordedTransaction = {
    userId,
    kioskId,
    plasticCount: 2,
    metalCount: 1,
    totalItems: 3,
    pointsEarned: 40,
    balanceBefore: 0,
    newBalance: 40,
    idempotencyKey: null,
    apiKeyId: 'test-key',
    pushQueued: false,
  };
  await transactionsCollection().doc(transactionId).set(newTransaction(recorded));
  return { transactionId, recorded };
}

/**
 * A real ID token from the Auth emulator. Signing in creates the account, which
 * fires the provisioning trigger; seeded profiles are never overwritten by it.
 */
export async function idTokenFor(uid: string, claims: Record<string, unknown> = {}): Promise<string> {
  const customToken = await getAuth(adminApp()).createCustomToken(uid, claims);
  const response = await fetch(
    `${AUTH}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=emulator`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: customToken, returnSecureToken: true }),
    },
  );
  const result = (await response.json()) as { idToken?: string };
  if (!result.idToken) throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return result.idToken;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function adminHeaders(): Promise<Record<string, string>> {
  return bearer(await idTokenFor(uniqueId('admin'), { admin: true }));
}

/** Waits for the transaction trigger to finish and returns the transaction document. */
export async function waitForEffects(transactionId: string, timeoutMs = 30_000) {
  return waitFor(
    `effects of transaction ${transactionId}`,
    async () => {
      const snapshot = await db().collection('transactions').doc(transactionId).get();
      return snapshot.get('effects.completedAt') ? snapshot.data() : undefined;
    },
    timeoutMs,
  );
}
