import { Timestamp } from 'firebase-admin/firestore';
import { call, db, resetEmulators, seedKiosk, seedKioskWithKey } from './helpers';
import { issueKey, revokeKey } from '../../src/data/kioskKeys';

beforeEach(resetEmulators);

describe('POST /kiosk/{kioskId}/status', () => {
  test('sets the status, refreshes lastUpdated and returns the kiosk', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    await db().collection('kiosks').doc(kioskId).update({ lastUpdated: Timestamp.fromMillis(0) });
    const res = await call('POST', `/kiosk/${kioskId}/status`, {
      body: { status: 'maintenance' },
      headers: { 'x-api-key': apiKey },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.kiosk).toMatchObject({ id: kioskId, status: 'maintenance' });
    expect(Date.parse(res.body.kiosk.lastUpdated)).toBeGreaterThan(Date.now() - 60_000);
    const stored = await db().collection('kiosks').doc(kioskId).get();
    expect(stored.get('status')).toBe('maintenance');
    const info = await call('GET', `/kiosk/${kioskId}`);
    expect(info.body.kiosk.status).toBe('maintenance');
  });

  test.each([[{}, 'status is required'], [{ status: 'broken' }, 'status must be one of available, maintenance, offline']])(
    'bad body %p: 400',
    async (body, message) => {
      const { kioskId, apiKey } = await seedKioskWithKey();
      const res = await call('POST', `/kiosk/${kioskId}/status`, { body, headers: { 'x-api-key': apiKey } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    },
  );

  test('missing key: 401', async () => {
    const kioskId = await seedKiosk();
    const res = await call('POST', `/kiosk/${kioskId}/status`, { body: { status: 'offline' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('X-API-Key header is required');
  });

  test('wrong key: 401', async () => {
    const kioskId = await seedKiosk();
    const res = await call('POST', `/kiosk/${kioskId}/status`, {
      body: { status: 'offline' },
      headers: { 'x-api-key': 'kr_not-a-real-key' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid or revoked API key');
  });

  test('revoked key: 401', async () => {
    const { kioskId, apiKey, keyId } = await seedKioskWithKey();
    await revokeKey(kioskId, keyId);
    const res = await call('POST', `/kiosk/${kioskId}/status`, { body: { status: 'offline' }, headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(401);
  });

  test("kiosk A's key on kiosk B: 403, B unchanged", async () => {
    const { apiKey } = await seedKioskWithKey();
    const other = await seedKiosk();
    const res = await call('POST', `/kiosk/${other}/status`, { body: { status: 'offline' }, headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(403);
    expect((await db().collection('kiosks').doc(other).get()).get('status')).toBe('available');
  });

  test('unknown kiosk: 404', async () => {
    const { apiKey } = await issueKey('ghost-kiosk', 'key of a kiosk that was never created');
    const res = await call('POST', '/kiosk/ghost-kiosk/status', { body: { status: 'offline' }, headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Kiosk ghost-kiosk not found');
  });
});

describe('GET /kiosk/{kioskId}', () => {
  test('returns the map fields, with openNow from the opening hours in the kiosk time zone', async () => {
    const kioskId = await seedKiosk({ name: 'Alexanderplatz', openingHours: '24/7', timezone: 'Europe/Berlin' });
    const res = await call('GET', `/kiosk/${kioskId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      kiosk: {
        id: kioskId,
        name: 'Alexanderplatz',
        address: 'Alexanderplatz 1, Berlin',
        status: 'available',
        plasticCount: 0,
        metalCount: 0,
        lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        location: { latitude: 52.52, longitude: 13.405 },
        openingHours: '24/7',
        timezone: 'Europe/Berlin',
        openNow: true,
      },
    });
  });

  test('a kiosk closed all week is not open now', async () => {
    const kioskId = await seedKiosk({ openingHours: 'off' });
    const res = await call('GET', `/kiosk/${kioskId}`);
    expect(res.body.kiosk.openNow).toBe(false);
  });

  test('unknown kiosk: 404', async () => {
    const res = await call('GET', '/kiosk/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Kiosk nowhere not found');
  });
});

describe('GET /kiosks', () => {
  test('lists every kiosk, or those in one state', async () => {
    const open = await seedKiosk();
    const broken = await seedKiosk({ status: 'maintenance' });
    const all = await call('GET', '/kiosks');
    expect(all.status).toBe(200);
    expect(all.body.kiosks.map((k: { id: string }) => k.id).sort()).toEqual([open, broken].sort());
    const available = await call('GET', '/kiosks?status=available');
    expect(available.body.kiosks.map((k: { id: string }) => k.id)).toEqual([open]);
    expect(available.body.kiosks[0]).toHaveProperty('openNow');
  });

  test('unknown status filter: 400', async () => {
    const res = await call('GET', '/kiosks?status=closed');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('status must be one of available, maintenance, offline');
  });
});
