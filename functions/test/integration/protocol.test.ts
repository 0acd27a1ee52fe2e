import http from 'node:http';
import { db, resetEmulators } from './helpers';
import { API_URL, adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser } from './seeds';

beforeEach(resetEmulators);

describe('health', () => {
  test('GET / names the service and its version', async () => {
    const res = await call('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', message: 'Kiosk Rewards API v1.0' });
  });
});

describe('protocol errors', () => {
  test('unknown route: 404 with { error }', async () => {
    const res = await call('GET', '/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No endpoint/);
  });

  test('wrong method: 405 with Allow', async () => {
    const res = await call('DELETE', '/kiosks');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.body.error).toMatch(/DELETE is not allowed/);
  });

  test('malformed JSON: 400', async () => {
    const { apiKey } = await seedKioskWithKey();
    const res = await call('POST', '/kiosk/transaction', {
      rawBody: '{"kioskId": ',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    });
    expect(res.status).toBe(400);
  });

  test('non-JSON body: 415', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const res = await call('POST', `/kiosk/${kioskId}/status`, {
      rawBody: 'status=offline',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': apiKey },
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('Content-Type must be application/json');
  });

  test('body over 64 KiB: 413', async () => {
    const res = await call('POST', '/send-otp-email', {
      body: { email: 'a@example.com', otp: '1234', padding: 'x'.repeat(70 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/at most 65536 bytes/);
  });

  test('unknown body field: 400 naming it', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const res = await call('POST', `/kiosk/${kioskId}/status`, {
      body: { status: 'offline', colour: 'green' },
      headers: { 'x-api-key': apiKey },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('colour is not a known field');
  });

  test('body that is not an object: 400', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const res = await call('POST', `/kiosk/${kioskId}/status`, { body: ['offline'], headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('request body must be a JSON object');
  });

  test.each([
    ['reserved __id__', '/kiosk/__kiosk__'],
    ['dot-dot', '/kiosk/..%2F..'],
    ['too long', `/kiosk/${'k'.repeat(129)}`],
    ['encoded slash', '/kiosk/a%2Fb'],
  ])('invalid path id (%s): 400', async (_name, path) => {
    const res = await call('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/kioskId must be 1-128 characters/);
  });

  test('unknown query parameter: 400', async () => {
    const res = await call('GET', '/kiosks?colour=green');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Unknown query parameter colour');
  });

  test('responses are not cached', async () => {
    const res = await call('GET', '/');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

/** Sends exactly these headers and this body; fetch refuses a body on GET and adds a Content-Type of its own. */
function send(method: string, path: string, headers: Record<string, string>, body: string) {
  const url = new URL(`${API_URL}${path}`);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('routes without a body refuse one', () => {
  const json = { 'content-type': 'application/json' };

  async function signedInUser() {
    const userId = await seedUser({ pushToken: 'kept-device' });
    return { userId, headers: await bearerFor(userId) };
  }
  const storedToken = async (userId: string) => (await db().collection('users').doc(userId).get()).get('pushToken');

  test('DELETE push-token with a JSON body: 400 naming the problem, the token stays', async () => {
    const { userId, headers } = await signedInUser();
    const res = await send('DELETE', `/user/${userId}/push-token`, { ...headers, ...json }, '{"token":"kept-device"}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: `DELETE /user/${userId}/push-token takes no request body`,
      code: 'invalid-argument',
    });
    expect(await storedToken(userId)).toBe('kept-device');
  });

  test.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no Content-Type', {}],
  ])('DELETE push-token with a body sent as %s: 415, the token stays', async (_name, contentType) => {
    const { userId, headers } = await signedInUser();
    const res = await send('DELETE', `/user/${userId}/push-token`, { ...headers, ...contentType }, 'token=kept-device');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Content-Type must be application/json', code: 'unsupported-media-type' });
    expect(await storedToken(userId)).toBe('kept-device');
  });

  test.each([
    ['an object with a field', '{"userId":"someone-else"}'],
    ['an empty object', '{}'],
  ])('GET /user with a JSON body (%s): 400', async (_name, body) => {
    const { userId, headers } = await signedInUser();
    const res = await send('GET', `/user/${userId}`, { ...headers, ...json }, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`GET /user/${userId} takes no request body`);
  });

  test('DELETE of a kiosk key with a JSON body: 400, the key stays active', async () => {
    const { kioskId, keyId } = await seedKioskWithKey();
    const res = await send(
      'DELETE',
      `/admin/kiosks/${kioskId}/keys/${keyId}`,
      { ...(await adminHeaders()), ...json },
      '{}',
    );
    expect(res.status).toBe(400);
    expect((await db().collection('kioskKeys').doc(keyId).get()).get('revokedAt')).toBeNull();
  });

  test('an empty body is no body, whatever the Content-Type says', async () => {
    const { userId, headers } = await signedInUser();
    expect((await send('GET', `/user/${userId}`, { ...headers, ...json }, '')).status).toBe(200);
    expect((await send('GET', `/user/${userId}`, { ...headers, 'content-type': 'text/plain' }, '')).status).toBe(200);
    expect((await send('DELETE', `/user/${userId}/push-token`, { ...headers, ...json }, '')).status).toBe(200);
    expect(await storedToken(userId)).toBeUndefined();
  });

  test('credentials are still checked before the body: 401 without them', async () => {
    const { userId } = await signedInUser();
    const res = await send('DELETE', `/user/${userId}/push-token`, { 'content-type': 'text/plain' }, 'x');
    expect(res.status).toBe(401);
  });
});

describe('CORS', () => {
  const allowed = 'https://app.kiosk-rewards.test';

  test('a configured origin gets Access-Control-Allow-Origin', async () => {
    const res = await call('GET', '/kiosks', { headers: { origin: allowed } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
  });

  test('any other origin does not', async () => {
    const res = await call('GET', '/kiosks', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('preflight from a configured origin: 204 with the allowed methods and headers', async () => {
    const res = await fetch(`${API_URL}/kiosk/transaction`, {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
  });

  test('preflight from another origin gets no CORS grant', async () => {
    const res = await fetch(`${API_URL}/kiosk/transaction`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });
});
