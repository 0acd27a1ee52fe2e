/**
 * ID token checks as deployed (not the emulator, where firebase-admin skips the
 * signature and always makes the revocation lookup). The real firebase-admin runs
 * against a local stand-in for Google's two endpoints, reached through the app's
 * `httpAgent`: the public keys (`www.googleapis.com`) and the Auth API's
 * `accounts:lookup` (`identitytoolkit.googleapis.com`). Either can be made to
 * answer with an error or not at all, so the failure paths run for real.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Agent } from 'node:https';
import { connect, createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { ApiError } from '../../src/errors';
import { requireAdmin, requireUserOrAdmin } from '../../src/http/auth';

const PROJECT_ID = 'demo-identity-unit';
const KEY_ID = 'key-1';
const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });

type Endpoint = 'answers' | 'fails' | 'unreachable';
interface Account {
  localId: string;
  disabled?: boolean;
  /** Seconds: tokens issued before it are revoked. */
  validSince?: string;
}

const google = {
  keys: 'answers' as Endpoint,
  lookup: 'answers' as Endpoint,
  accounts: new Map<string, Account>(),
  lookups: 0,
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });

/** What Google answers, as far as firebase-admin's token checks use it. */
const standIn: Server = createServer(async (req, res) => {
  const body = await readBody(req);
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (req.headers.host === 'www.googleapis.com') {
    if (google.keys === 'fails') return json(500, { error: 'backend_error' });
    return json(200, { [KEY_ID]: signingKey.publicKey.export({ type: 'spki', format: 'pem' }) });
  }
  if (req.headers.host === 'identitytoolkit.googleapis.com' && req.url === `/v1/projects/${PROJECT_ID}/accounts:lookup`) {
    google.lookups++;
    if (google.lookup === 'fails') return json(500, { error: { code: 500, message: 'INTERNAL_ERROR' } });
    const [uid] = (JSON.parse(body) as { localId: string[] }).localId;
    const account = google.accounts.get(uid);
    return json(200, account ? { users: [account] } : {});
  }
  json(404, { error: 'not here' });
});

let app: App;
let closedPort: number;

/** Sends every HTTPS request of firebase-admin to the stand-in, in plain HTTP, or to a port nobody listens on. */
class ToStandIn extends Agent {
  createConnection(options: { host?: string | null }) {
    const endpoint = options.host === 'www.googleapis.com' ? google.keys : google.lookup;
    return connect(endpoint === 'unreachable' ? closedPort : (standIn.address() as AddressInfo).port, '127.0.0.1');
  }
}

beforeAll(async () => {
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  app = initializeApp({
    projectId: PROJECT_ID,
    httpAgent: new ToStandIn(),
    credential: { getAccessToken: async () => ({ access_token: 'stand-in', expires_in: 3600 }) },
  });
});

afterAll(async () => {
  await deleteApp(app);
  await new Promise((resolve) => standIn.close(resolve));
});

beforeEach(() => {
  google.keys = 'answers';
  google.lookup = 'answers';
  google.accounts.clear();
  google.lookups = 0;
});

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An ID token as Google signs it, issued `ageSeconds` ago. */
function idToken(uid: string, { admin = false, ageSeconds = 60, key = signingKey.privateKey, expired = false } = {}): string {
  const issuedAt = nowSeconds() - ageSeconds;
  const header = base64url({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' });
  const payload = base64url({
    iss: `https://securetoken.google.com/${PROJECT_ID}`,
    aud: PROJECT_ID,
    sub: uid,
    user_id: uid,
    auth_time: issuedAt,
    iat: issuedAt,
    exp: expired ? nowSeconds() - 1 : issuedAt + 3600,
    firebase: { sign_in_provider: 'custom', identities: {} },
    ...(admin ? { admin: true } : {}),
  });
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), key).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('admin routes check revocation (requireAdmin)', () => {
  test('an admin with a good token passes, after one Auth lookup', async () => {
    google.accounts.set('boss', { localId: 'boss' });
    await expect(requireAdmin(bearer(idToken('boss', { admin: true })))).resolves.toEqual({ uid: 'boss', admin: true });
    expect(google.lookups).toBe(1);
  });

  test("a token issued before the account's tokens were revoked: 401 at once", async () => {
    google.accounts.set('boss', { localId: 'boss', validSince: String(nowSeconds() - 30) });
    const error = await rejection(requireAdmin(bearer(idToken('boss', { admin: true, ageSeconds: 60 }))));
    expect([error.status, error.message]).toEqual([401, 'Invalid or expired ID token']);
  });

  test('a token issued after the revocation passes', async () => {
    google.accounts.set('boss', { localId: 'boss', validSince: String(nowSeconds() - 30) });
    await expect(requireAdmin(bearer(idToken('boss', { admin: true, ageSeconds: 10 })))).resolves.toMatchObject({ uid: 'boss' });
  });

  test('a disabled account: 401', async () => {
    google.accounts.set('boss', { localId: 'boss', disabled: true });
    expect((await rejection(requireAdmin(bearer(idToken('boss', { admin: true }))))).status).toBe(401);
  });

  test('a deleted account: 401', async () => {
    expect((await rejection(requireAdmin(bearer(idToken('gone', { admin: true }))))).status).toBe(401);
  });
});

describe("user routes: the caller's own data needs no Auth lookup", () => {
  test("a revoked user still reads their own data until the token expires; no lookup is made", async () => {
    google.accounts.set('alice', { localId: 'alice', validSince: String(nowSeconds() - 30) });
    await expect(requireUserOrAdmin(bearer(idToken('alice')), 'alice')).resolves.toEqual({ uid: 'alice', admin: false });
    expect(google.lookups).toBe(0);
  });

  test("an admin reaching someone else's data is checked for revocation like on /admin/*", async () => {
    google.accounts.set('boss', { localId: 'boss', validSince: String(nowSeconds() - 30) });
    expect((await rejection(requireUserOrAdmin(bearer(idToken('boss', { admin: true })), 'alice'))).status).toBe(401);
    expect(google.lookups).toBe(1);
  });

  test("a good admin reaches someone else's data", async () => {
    google.accounts.set('boss', { localId: 'boss' });
    await expect(requireUserOrAdmin(bearer(idToken('boss', { admin: true })), 'alice')).resolves.toMatchObject({ uid: 'boss' });
  });
});

describe('a token that cannot be checked is 503 with Retry-After, a bad one stays 401', () => {
  const unavailable = async (promise: Promise<unknown>) => {
    const error = await rejection(promise);
    expect({ status: error.status, code: error.code, headers: error.headers }).toEqual({
      status: 503,
      code: 'auth-unavailable',
      headers: { 'Retry-After': '5' },
    });
  };

  test.each<[string, Endpoint]>([
    ['no answer', 'unreachable'],
    ['an error answer', 'fails'],
  ])("Google's public keys cannot be fetched (%s): 503 on admin and user routes", async (_what, state) => {
    google.accounts.set('boss', { localId: 'boss' });
    google.keys = state;
    await unavailable(requireAdmin(bearer(idToken('boss', { admin: true }))));
    await unavailable(requireUserOrAdmin(bearer(idToken('alice')), 'alice'));
  });

  test.each<[string, Endpoint]>([
    ['no answer', 'unreachable'],
    ['an error answer', 'fails'],
  ])('the Auth backend fails the revocation lookup (%s): 503', async (_what, state) => {
    google.accounts.set('boss', { localId: 'boss' });
    google.lookup = state;
    await unavailable(requireAdmin(bearer(idToken('boss', { admin: true }))));
  });

  test.each([
    ['expired', () => idToken('boss', { admin: true, expired: true })],
    ['signed with another key', () => idToken('boss', { admin: true, key: otherKey.privateKey })],
    ['truncated', () => idToken('boss', { admin: true }).slice(0, -30)],
    ['not a JWT', () => 'not-a-token'],
    ['a payload that is not JSON', () => `${base64url({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })}.${Buffer.from('{"sub":').toString('base64url')}.x`],
  ])('a bad token (%s) with both endpoints up: 401', async (_what, token) => {
    google.accounts.set('boss', { localId: 'boss' });
    expect((await rejection(requireAdmin(bearer(token())))).status).toBe(401);
  });
});
