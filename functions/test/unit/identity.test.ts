/**
 * ID token checks as deployed (not the emulator, where firebase-admin skips the
 * signature and always makes the revocation lookup). The real firebase-admin runs
 * against a local stand-in for Google's two endpoints, reached through the app's
 * `httpAgent`: the public keys (`www.googleapis.com`) and the Auth API's
 * `accounts:lookup` (`identitytoolkit.googleapis.com`). Either can be made to
 * answer with an error or not at all, so the failure paths run for real.
 */
import { generateKeyPairSync } from 'node:crypto';
import { deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { withIdleTimeout } from '../../src/adapters/googleHttp';
import { ApiError } from '../../src/errors';
import { errorAnswerOf, type ErrorAnswer } from '../../src/http/errorAnswers';
import { requireAdmin, requireUserOrAdmin } from '../../src/http/auth';
import { nowSeconds, startGoogleStandIn, type Endpoint } from '../harness/google-stand-in';

const PROJECT_ID = 'demo-identity-unit';
const IDLE_TIMEOUT_MS = 300;
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });

let google: Awaited<ReturnType<typeof startGoogleStandIn>>;
let app: App;
const idToken: Awaited<ReturnType<typeof startGoogleStandIn>>['idToken'] = (...args) => google.idToken(...args);

beforeAll(async () => {
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  google = await startGoogleStandIn(PROJECT_ID);
  // As deployed (adapters/firestore.ts adminAppOptions), with a shorter idle timeout.
  app = initializeApp({
    projectId: PROJECT_ID,
    httpAgent: withIdleTimeout(google.agent, IDLE_TIMEOUT_MS),
    credential: google.credential,
  });
});

afterAll(async () => {
  await deleteApp(app);
  await google.close();
});

beforeEach(() => google.reset());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function rejection(promise: Promise<unknown>): Promise<ErrorAnswer> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return errorAnswerOf(error as ApiError);
}

describe('admin routes check revocation (requireAdmin)', () => {
  test('an admin with a good token passes, after one Auth lookup', async () => {
    google.state.accounts.set('boss', { localId: 'boss' });
    await expect(requireAdmin(bearer(idToken('boss', { admin: true })))).resolves.toEqual({
      uid: 'boss',
      admin: true,
      signedInAt: expect.any(Number),
    });
    expect(google.state.lookups).toBe(1);
  });

  test("a token issued before the account's tokens were revoked: 401 at once", async () => {
    google.state.accounts.set('boss', { localId: 'boss', validSince: String(nowSeconds() - 30) });
    const error = await rejection(requireAdmin(bearer(idToken('boss', { admin: true, ageSeconds: 60 }))));
    expect([error.status, error.message]).toEqual([401, 'Invalid or expired ID token']);
  });

  test('a token issued after the revocation passes', async () => {
    google.state.accounts.set('boss', { localId: 'boss', validSince: String(nowSeconds() - 30) });
    await expect(requireAdmin(bearer(idToken('boss', { admin: true, ageSeconds: 10 })))).resolves.toMatchObject({
      uid: 'boss',
    });
  });

  test('a disabled account: 401', async () => {
    google.state.accounts.set('boss', { localId: 'boss', disabled: true });
    expect((await rejection(requireAdmin(bearer(idToken('boss', { admin: true }))))).status).toBe(401);
  });

  test('a deleted account: 401', async () => {
    expect((await rejection(requireAdmin(bearer(idToken('gone', { admin: true }))))).status).toBe(401);
  });
});

describe("user routes: the caller's own data needs no Auth lookup", () => {
  test('a revoked user still reads their own data until the token expires; no lookup is made', async () => {
    google.state.accounts.set('alice', { localId: 'alice', validSince: String(nowSeconds() - 30) });
    await expect(requireUserOrAdmin(bearer(idToken('alice')), 'alice')).resolves.toEqual({
      uid: 'alice',
      admin: false,
      signedInAt: expect.any(Number),
    });
    expect(google.state.lookups).toBe(0);
  });

  test("an admin reaching someone else's data is checked for revocation like on /admin/*", async () => {
    google.state.accounts.set('boss', { localId: 'boss', validSince: String(nowSeconds() - 30) });
    expect((await rejection(requireUserOrAdmin(bearer(idToken('boss', { admin: true })), 'alice'))).status).toBe(401);
    expect(google.state.lookups).toBe(1);
  });

  test("a good admin reaches someone else's data", async () => {
    google.state.accounts.set('boss', { localId: 'boss' });
    await expect(requireUserOrAdmin(bearer(idToken('boss', { admin: true })), 'alice')).resolves.toMatchObject({
      uid: 'boss',
    });
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

  /** The two ways an endpoint fails: as the test names say it, and as the stand-in is set. */
  const failures: [string, Endpoint][] = [
    ['no answer', 'unreachable'],
    ['an error answer', 'fails'],
  ];

  test("Google's public keys endpoint takes the connection and stays silent: 503 after the idle timeout, once", async () => {
    google.state.accounts.set('boss', { localId: 'boss' });
    google.state.keys = 'silent';
    const started = Date.now();
    await unavailable(requireAdmin(bearer(idToken('boss', { admin: true }))));
    await unavailable(requireUserOrAdmin(bearer(idToken('alice')), 'alice'));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2 * IDLE_TIMEOUT_MS - 50);
    // Not retried: ETIMEDOUT would be, 4 times with back-off (1 + 2 + 4 s more each).
    expect(elapsed).toBeLessThan(3_000);
  });

  test.each(failures)(
    "Google's public keys cannot be fetched (%s): 503 on admin and user routes",
    async (_what, state) => {
      google.state.accounts.set('boss', { localId: 'boss' });
      google.state.keys = state;
      await unavailable(requireAdmin(bearer(idToken('boss', { admin: true }))));
      await unavailable(requireUserOrAdmin(bearer(idToken('alice')), 'alice'));
    },
  );

  test.each(failures)('the Auth backend fails the revocation lookup (%s): 503', async (_what, state) => {
    google.state.accounts.set('boss', { localId: 'boss' });
    google.state.lookup = state;
    await unavailable(requireAdmin(bearer(idToken('boss', { admin: true }))));
  });

  test.each([
    ['expired', () => idToken('boss', { admin: true, expired: true })],
    ['signed with another key', () => idToken('boss', { admin: true, key: otherKey.privateKey })],
    ['truncated', () => idToken('boss', { admin: true }).slice(0, -30)],
    ['not a JWT', () => 'not-a-token'],
    ['a payload that is not JSON', () => `${google.tokenHeader}.${Buffer.from('{"sub":').toString('base64url')}.x`],
  ])('a bad token (%s) with both endpoints up: 401', async (_what, token) => {
    google.state.accounts.set('boss', { localId: 'boss' });
    expect((await rejection(requireAdmin(bearer(token())))).status).toBe(401);
  });
});
