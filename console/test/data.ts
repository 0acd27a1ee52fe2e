// Data for the browser tests, made and read as an operator would through the API
// (accounts in the Auth emulator; Firestore's REST API for what no API shows). The
// emulator plumbing is the one harness the integration tests use (functions/test/harness).
import assert from 'node:assert/strict';
import { createPasswordAccount, idTokenFor } from '../../functions/test/harness/auth.ts';
import { apiUrl, discoverEmulators, emulatorsFromEnv } from '../../functions/test/harness/emulators.ts';
import { waitFor } from '../../functions/test/harness/wait.ts';

const PASSWORD = 'console-test-password';

let discovery: ReturnType<typeof discoverEmulators> | undefined;
/** The emulators of the run, asked of the hub once (the Hosting and functions hosts are not in the environment). */
export const emulatorsFound = () => (discovery ??= discoverEmulators());

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const uniqueId = (prefix: string) => `${prefix}-${unique()}`;

/** A new e-mail/password account; `admin`: an operator. */
export async function newAccount(admin: boolean): Promise<{ uid: string; email: string; password: string }> {
  const email = `${admin ? 'operator' : 'member'}-${unique()}@kiosk-rewards.test`;
  const uid = await createPasswordAccount({ email, password: PASSWORD, admin });
  return { uid, email, password: PASSWORD };
}

let operatorToken: Promise<string> | undefined;

/** The API as an operator calls it (for the data a test needs, and to check what the console did). */
export async function api<T = any>(
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T }> {
  await emulatorsFound();
  operatorToken ??= idTokenFor('browser-tests-operator', { admin: true });
  const token = init.token ?? (await operatorToken);
  const response = await fetch(`${apiUrl()}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.headers?.['X-API-Key'] ? {} : { authorization: `Bearer ${token}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as T };
}

/** Every document of a Firestore collection, as the emulator's REST API gives it (what no API shows: the push outbox). */
export async function firestoreDocuments(collection: string): Promise<unknown[]> {
  const { firestore, projectId } = emulatorsFromEnv();
  const documents: unknown[] = [];
  let pageToken = '';
  do {
    const response = await fetch(
      `http://${firestore}/v1/projects/${projectId}/databases/(default)/documents/${collection}?pageSize=300&pageToken=${pageToken}`,
      { headers: { authorization: 'Bearer owner' } },
    );
    const page = (await response.json()) as { documents?: unknown[]; nextPageToken?: string };
    documents.push(...(page.documents ?? []));
    pageToken = page.nextPageToken ?? '';
  } while (pageToken);
  return documents;
}

/**
 * Resolves once the kiosk's deposits of today are in its daily figures: the transaction
 * trigger counts a deposit into them after the deposit's answer (counters are eventual).
 */
export async function dayFiguresCounted(kioskId: string, transactions: number): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  const report = () =>
    api<{ rows: { transactions: number }[] }>(`/admin/reports/kiosk-days?from=${day}&to=${day}&kioskId=${kioskId}`);
  await waitFor(
    `${transactions} transaction(s) of kiosk ${kioskId} in its figures of ${day}`,
    async () => ((await report()).body.rows?.[0]?.transactions === transactions ? true : undefined),
    60_000,
    async () => `the report answered ${JSON.stringify((await report()).body)}`,
  );
}

/** A deposit at the kiosk, through the API, as the kiosk makes it. */
async function deposit(
  kiosk: { id: string; apiKey: string },
  userId: string,
  items: { plasticCount: number; metalCount: number },
) {
  const answer = await api('/kiosk/transaction', {
    headers: { 'X-API-Key': kiosk.apiKey },
    body: { kioskId: kiosk.id, userId, ...items },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** A new member's deposit at a new kiosk (the award provisions the member's profile). */
export async function memberWithDeposit(items: { plasticCount: number; metalCount: number }) {
  const member = await newAccount(false);
  const kiosk = await seedKiosk();
  await deposit(kiosk, member.uid, items);
  return { ...member, kiosk };
}

/** A kiosk and one of its keys, through the API. */
export async function seedKiosk(fields: { name?: string; latitude?: number; longitude?: number } = {}) {
  const id = uniqueId('kiosk');
  const created = await api('/admin/kiosks', {
    body: {
      id,
      name: fields.name ?? `Kiosk ${id}`,
      address: '1 Test Street',
      location: { latitude: fields.latitude ?? 52.37, longitude: fields.longitude ?? 4.89 },
    },
  });
  if (created.status !== 201) throw new Error(`kiosk not created: ${created.status} ${JSON.stringify(created.body)}`);
  const key = await api<{ apiKey: string; keyId: string }>(`/admin/kiosks/${id}/keys`, { body: { label: 'seed' } });
  return { id, apiKey: key.body.apiKey };
}
