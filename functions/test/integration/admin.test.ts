import { db, resetEmulators } from './helpers';
import { adminHeaders, call, nonAdminHeaders } from './requests';
import { seedKiosk } from './seeds';

beforeEach(resetEmulators);

const berlin = { latitude: 52.5219, longitude: 13.4132 };

describe('POST /admin/kiosks', () => {
  test('creates a kiosk with defaults: 201', async () => {
    const res = await call('POST', '/admin/kiosks', {
      headers: await adminHeaders(),
      body: { id: 'alex-1', name: 'Alexanderplatz', address: 'Alexanderplatz 1, Berlin', location: berlin },
    });
    expect(res.status).toBe(201);
    expect(res.body.kiosk).toMatchObject({
      id: 'alex-1',
      status: 'available',
      plasticCount: 0,
      metalCount: 0,
      openingHours: '24/7',
      timezone: 'UTC',
      openNow: true,
      location: berlin,
    });
    const stored = (await db().collection('kiosks').doc('alex-1').get()).data()!;
    expect(stored.geohash).toMatch(/^u33d/);
    expect(stored.location.latitude).toBe(berlin.latitude);
  });

  test('updates the given fields and keeps the counters and what was omitted: 200', async () => {
    const id = await seedKiosk({ openingHours: 'Mo-Fr 08:00-20:00', timezone: 'Europe/Berlin', status: 'maintenance' });
    await db().collection('kiosks').doc(id).update({ plasticCount: 7, metalCount: 3 });
    const res = await call('POST', '/admin/kiosks', {
      headers: await adminHeaders(),
      body: { id, name: 'Renamed', address: 'Elsewhere 2', location: berlin },
    });
    expect(res.status).toBe(200);
    expect(res.body.kiosk).toMatchObject({
      id,
      name: 'Renamed',
      address: 'Elsewhere 2',
      status: 'maintenance',
      plasticCount: 7,
      metalCount: 3,
      openingHours: 'Mo-Fr 08:00-20:00',
      timezone: 'Europe/Berlin',
    });
  });

  test.each([
    [{ location: { latitude: 91, longitude: 0 } }, 'location.latitude must be <= 90'],
    [{ location: { latitude: 0, longitude: -181 } }, 'location.longitude must be >= -180'],
    [{ timezone: 'Mars/Olympus' }, 'timezone must be an IANA time zone name, e.g. Europe/Berlin'],
    [{ openingHours: 'whenever we feel like it' }, 'openingHours is not valid OpenStreetMap opening_hours syntax'],
    [{ status: 'closed' }, 'status must be one of available, maintenance, offline'],
    [{ id: '__x__' }, 'id must be 1-128 characters'],
  ])('%p: 400, nothing written', async (override, message) => {
    const body = { id: 'k-bad', name: 'n', address: 'a', location: berlin, ...override };
    const res = await call('POST', '/admin/kiosks', { headers: await adminHeaders(), body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await db().collection('kiosks').get()).size).toBe(0);
  });

  test('a non-admin: 403; no token: 401', async () => {
    const body = { id: 'k', name: 'n', address: 'a', location: berlin };
    expect((await call('POST', '/admin/kiosks', { body })).status).toBe(401);
    expect((await call('POST', '/admin/kiosks', { headers: await nonAdminHeaders(), body })).status).toBe(403);
  });
});

describe('kiosk API keys', () => {
  test('a new key works at once, is stored only as its hash, and stops working when revoked', async () => {
    const kioskId = await seedKiosk();
    const headers = await adminHeaders();
    const created = await call('POST', `/admin/kiosks/${kioskId}/keys`, { headers, body: { label: 'front panel' } });
    expect(created.status).toBe(201);
    const { keyId, apiKey } = created.body;
    expect(keyId).toMatch(/^[0-9a-f]{64}$/);
    const stored = (await db().collection('kioskKeys').doc(keyId).get()).data()!;
    expect(stored).toMatchObject({ kioskId, label: 'front panel', revokedAt: null });
    expect(JSON.stringify(stored)).not.toContain(apiKey);

    const status = () =>
      call('POST', `/kiosk/${kioskId}/status`, { headers: { 'x-api-key': apiKey }, body: { status: 'offline' } });
    expect((await status()).status).toBe(200);

    const revoked = await call('DELETE', `/admin/kiosks/${kioskId}/keys/${keyId}`, { headers });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await status()).status).toBe(401);
  });

  test('a key without a body (no label): 201', async () => {
    const kioskId = await seedKiosk();
    const res = await call('POST', `/admin/kiosks/${kioskId}/keys`, { headers: await adminHeaders() });
    expect(res.status).toBe(201);
  });

  test('unknown kiosk: 404; unknown key: 404', async () => {
    const headers = await adminHeaders();
    expect((await call('POST', '/admin/kiosks/nowhere/keys', { headers, body: {} })).status).toBe(404);
    const kioskId = await seedKiosk();
    const res = await call('DELETE', `/admin/kiosks/${kioskId}/keys/${'0'.repeat(64)}`, { headers });
    expect(res.status).toBe(404);
  });

  test('a non-admin can neither issue nor revoke: 403', async () => {
    const kioskId = await seedKiosk();
    const headers = await nonAdminHeaders();
    expect((await call('POST', `/admin/kiosks/${kioskId}/keys`, { headers, body: {} })).status).toBe(403);
    expect((await call('DELETE', `/admin/kiosks/${kioskId}/keys/${'0'.repeat(64)}`, { headers })).status).toBe(403);
    expect((await db().collection('kioskKeys').get()).size).toBe(0);
  });
});
