import { getAuth } from 'firebase-admin/auth';
import { adminApp } from '../../src/adapters/firestore';
import { afterThisSecond, revokeSessions } from '../harness/auth';
import { admin } from './cli-runner';
import { PROJECT_ID, db, resetEmulators } from './helpers';
import { bearer, bearerFor, call, idTokenFor } from './requests';
import { seedKioskAndUser, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned ID token with the given claims, as the Auth emulator issues them. */
function craftToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://securetoken.google.com/${PROJECT_ID}`,
    aud: PROJECT_ID,
    auth_time: now - 60,
    iat: now - 60,
    exp: now + 3600,
    firebase: { sign_in_provider: 'custom', identities: {} },
    ...claims,
  };
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
}

describe('ID tokens', () => {
  test('an expired token: 401', async () => {
    const userId = await seedUser();
    const now = Math.floor(Date.now() / 1000);
    const token = craftToken({ sub: userId, user_id: userId, iat: now - 7200, auth_time: now - 7200, exp: now - 3600 });
    const res = await call('GET', `/user/${userId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid or expired ID token');
  });

  test('a token minted for another project: 401', async () => {
    const userId = await seedUser();
    const token = craftToken({
      sub: userId,
      user_id: userId,
      aud: 'someone-elses-project',
      iss: 'https://securetoken.google.com/someone-elses-project',
    });
    const res = await call('GET', `/user/${userId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  test('a truncated or re-assembled token: 401', async () => {
    const userId = await seedUser();
    const real = await idTokenFor(userId);
    for (const broken of [real.slice(0, -20), `${real}.extra`, real.split('.').reverse().join('.')]) {
      const res = await call('GET', `/user/${userId}`, { headers: { authorization: `Bearer ${broken}` } });
      expect(res.status).toBe(401);
    }
  });

  test('a credential header longer than 8 KiB: 401 without trying it', async () => {
    const userId = await seedUser();
    const res = await call('GET', `/user/${userId}`, { headers: { authorization: `Bearer ${'a'.repeat(9000)}` } });
    expect(res.status).toBe(401);
  });
});

/**
 * End to end on the emulator. There firebase-admin makes the revocation lookup on
 * every verification (auth/base-auth.js verifyIdToken), so user routes refuse a
 * revoked token too; test/unit/identity.test.ts runs the checks as deployed.
 */
describe('admin rights end at once', () => {
  const newKiosk = () => ({
    id: uniqueId('kiosk'),
    name: 'Revocation test',
    address: 'Somewhere 1',
    location: { latitude: 52.5, longitude: 13.4 },
  });

  test('an admin token issued before the revocation: 401 on /admin/*, nothing written; a fresh one works', async () => {
    const uid = uniqueId('admin');
    const token = await idTokenFor(uid, { admin: true });
    const before = await call('POST', '/admin/kiosks', { headers: bearer(token), body: newKiosk() });
    expect(before.status).toBe(201);

    await revokeSessions(uid);
    const kiosk = newKiosk();
    const after = await call('POST', '/admin/kiosks', { headers: bearer(token), body: kiosk });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'Invalid or expired ID token', code: 'unauthenticated' });
    expect((await db().collection('kiosks').doc(kiosk.id).get()).exists).toBe(false);

    const fresh = await call('POST', '/admin/kiosks', {
      headers: await bearerFor(uid, { admin: true }),
      body: kiosk,
    });
    expect(fresh.status).toBe(201);
  });

  test('admin:revoke (CLI): every token issued before is 401 on /admin/* and /notify/* at once', async () => {
    const uid = uniqueId('admin');
    const token = await idTokenFor(uid, { admin: true });
    expect((await call('POST', '/admin/kiosks', { headers: bearer(token), body: newKiosk() })).status).toBe(201);

    await afterThisSecond();
    expect(await admin('admin:revoke', '--uid', uid)).toMatch(/refuse them at once/);
    const kiosk = newKiosk();
    const write = await call('POST', '/admin/kiosks', { headers: bearer(token), body: kiosk });
    expect(write.status).toBe(401);
    expect((await db().collection('kiosks').doc(kiosk.id).get()).exists).toBe(false);
    const push = await call('POST', '/notify/topic', {
      headers: bearer(token),
      body: { topic: 'all_users', title: 'Still admin?', body: 'No' },
    });
    expect(push.status).toBe(401);
    expect((await db().collection('pushOutbox').get()).size).toBe(0);
  });

  test('a disabled admin account: 401 on /notify/*, nothing sent', async () => {
    const uid = uniqueId('admin');
    const token = await idTokenFor(uid, { admin: true });
    await getAuth(adminApp()).updateUser(uid, { disabled: true });
    const res = await call('POST', '/notify/topic', {
      headers: bearer(token),
      body: { topic: 'all_users', title: 'Still admin?', body: 'No' },
    });
    expect(res.status).toBe(401);
    expect((await db().collection('pushOutbox').get()).size).toBe(0);
  });
});

describe('bad input never costs more than a 400', () => {
  test('GET /kiosks?near= with 16 KB of digits: 400 at once', async () => {
    const started = Date.now();
    const res = await call('GET', `/kiosks?near=${'1'.repeat(16_000)}x,1`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Query parameter near must be at most 1000 characters');
    expect(Date.now() - started).toBeLessThan(5_000);
    const long = await call('GET', `/kiosks?near=${'1'.repeat(100)},1`);
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/^near must be latitude,longitude in decimal degrees/);
  });

  test('a page cursor longer than any the service hands out: 400', async () => {
    const userId = await seedUser();
    const res = await call('GET', `/user/${userId}/history?cursor=${'A'.repeat(1001)}`, {
      headers: await bearerFor(userId),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Query parameter cursor must be at most 1000 characters',
      code: 'invalid-argument',
    });
  });

  test('a batch item holding 10,000 nested arrays: 400 for the batch, nothing awarded', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const depth = 10_000;
    const item = `{"kioskId":"${kioskId}","userId":"${userId}","plasticCount":1,"metalCount":0,"idempotencyKey":"deep-1","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const res = await call('POST', '/kiosk/transactions/batch', {
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      rawBody: `{"transactions":[${item}]}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'request body nests arrays or objects deeper than 8 levels',
      code: 'invalid-argument',
    });
    expect((await db().collection('transactions').get()).size).toBe(0);
  });
});
