import { call, idTokenFor, PROJECT_ID, resetEmulators, seedUser } from './helpers';

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
    const token = craftToken({ sub: userId, user_id: userId, aud: 'someone-elses-project', iss: 'https://securetoken.google.com/someone-elses-project' });
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
