import { API_URL, call, resetEmulators, seedKioskWithKey } from './helpers';

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
