import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { db, resetEmulators, waitForEffects } from './helpers';
import { adminHeaders, call, type ApiResult } from './requests';
import { seedKiosk, seedKioskWithKey, seedUser } from './seeds';
import { captureLogs, send, startFuzzServer } from './fuzz-server';
import { issueKey, revokeKey } from '../../src/data/kioskKeys';
import { listKiosks } from '../../src/data/kiosks';

beforeEach(resetEmulators);

describe('POST /kiosk/{kioskId}/status', () => {
  test('sets the status, refreshes lastUpdated and returns the kiosk', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    await db()
      .collection('kiosks')
      .doc(kioskId)
      .update({ lastUpdated: Timestamp.fromMillis(0) });
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

  test.each([
    [{}, 'status is required'],
    [{ status: 'broken' }, 'status must be one of available, maintenance, offline'],
  ])('bad body %p: 400', async (body, message) => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const res = await call('POST', `/kiosk/${kioskId}/status`, { body, headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

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
    const res = await call('POST', `/kiosk/${kioskId}/status`, {
      body: { status: 'offline' },
      headers: { 'x-api-key': apiKey },
    });
    expect(res.status).toBe(401);
  });

  test("kiosk A's key on kiosk B: 403, B unchanged", async () => {
    const { apiKey } = await seedKioskWithKey();
    const other = await seedKiosk();
    const res = await call('POST', `/kiosk/${other}/status`, {
      body: { status: 'offline' },
      headers: { 'x-api-key': apiKey },
    });
    expect(res.status).toBe(403);
    expect((await db().collection('kiosks').doc(other).get()).get('status')).toBe('available');
  });

  test('unknown kiosk: 404', async () => {
    const { apiKey } = await issueKey('ghost-kiosk', 'key of a kiosk that was never created');
    const res = await call('POST', '/kiosk/ghost-kiosk/status', {
      body: { status: 'offline' },
      headers: { 'x-api-key': apiKey },
    });
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
        lastSeenAt: null,
        online: false,
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

describe('a kiosk document broken by hand', () => {
  const breakKiosk = (kioskId: string, fields: Record<string, unknown>) =>
    db().collection('kiosks').doc(kioskId).update(fields);
  const idsOf = (res: ApiResult): string[] => res.body.kiosks.map((kiosk: { id: string }) => kiosk.id);
  const submit = (apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey, ...headers } });
  const INTERNAL = { error: 'Internal server error', code: 'internal' };

  test('is left out of GET /kiosks, which still lists every other kiosk', async () => {
    const good = await seedKiosk();
    const resting = await seedKiosk({ status: 'maintenance' });
    const broken = await Promise.all([seedKiosk(), seedKiosk(), seedKiosk(), seedKiosk(), seedKiosk()]);
    await Promise.all([
      breakKiosk(broken[0], { location: FieldValue.delete() }),
      breakKiosk(broken[1], { lastUpdated: FieldValue.delete() }),
      breakKiosk(broken[2], { name: FieldValue.delete(), address: 7 }),
      breakKiosk(broken[3], { openingHours: 'Mo-Fr 08:00-' }),
      breakKiosk(broken[4], { timezone: 'Mars/Olympus' }),
    ]);

    const all = await call('GET', '/kiosks');
    expect(all.status).toBe(200);
    expect(idsOf(all).sort()).toEqual([good, resting].sort());
    const available = await call('GET', '/kiosks?status=available');
    expect(available.status).toBe(200);
    expect(idsOf(available)).toEqual([good]);
  });

  test('is logged as kiosk_document_invalid with its id and the fields at fault', async () => {
    const kioskId = await seedKiosk();
    await breakKiosk(kioskId, { location: FieldValue.delete(), lastUpdated: 'yesterday' });
    const logs = captureLogs();
    try {
      expect(await listKiosks(undefined)).toEqual([]);
      expect(logs.recent().map((line) => JSON.parse(line))).toContainEqual({
        severity: 'WARNING',
        message: 'kiosk_document_invalid',
        kioskId,
        invalidFields: ['lastUpdated', 'location'],
      });
    } finally {
      logs.restore();
    }
  });

  test('its own GET /kiosk/{id} is a 500 without internals; other kiosks answer', async () => {
    const good = await seedKiosk();
    const broken = await seedKiosk();
    await breakKiosk(broken, { location: FieldValue.delete() });
    const res = await call('GET', `/kiosk/${broken}`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual(INTERNAL);
    expect((await call('GET', `/kiosk/${good}`)).status).toBe(200);
  });

  test('the 500 is logged as request_failed with the error and its stack, for the operator only', async () => {
    const broken = await seedKiosk();
    await breakKiosk(broken, { location: FieldValue.delete() });
    const server = await startFuzzServer();
    const logs = captureLogs();
    try {
      const res = await send(server.port, { method: 'GET', path: `/kiosk/${broken}`, headers: {} });
      expect(res.status).toBe(500);
      expect(res.text).not.toMatch(/location|\bat /);
      const failure = logs
        .recent()
        .map((line) => JSON.parse(line))
        .find((entry) => entry.message === 'request_failed');
      expect(failure).toMatchObject({ severity: 'ERROR', method: 'GET', route: '/kiosk/{kioskId}' });
      expect(failure.errorMessage).toContain('location');
      expect(failure.stack).toMatch(/\n\s+at /);
    } finally {
      logs.restore();
      await server.close();
    }
  });

  test('with only display fields broken it still takes deposits, counted by the trigger; other kiosks are unaffected', async () => {
    const good = await seedKioskWithKey();
    const broken = await seedKioskWithKey();
    await breakKiosk(broken.kioskId, { location: FieldValue.delete(), name: FieldValue.delete() });
    const userId = await seedUser();

    const atGood = await submit(good.apiKey, { kioskId: good.kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(atGood.status).toBe(200);
    const atBroken = await submit(broken.apiKey, { kioskId: broken.kioskId, userId, plasticCount: 2, metalCount: 1 });
    expect(atBroken.status).toBe(200);

    const id = atBroken.body.transaction.id;
    expect((await waitForEffects(id)).effects).toMatchObject({ kioskCounted: true, notificationId: id });
    expect((await waitForEffects(atGood.body.transaction.id)).effects).toMatchObject({ kioskCounted: true });
    const kiosk = (await db().collection('kiosks').doc(broken.kioskId).get()).data()!;
    expect([kiosk.plasticCount, kiosk.metalCount]).toEqual([2, 1]);
    // Without a name the notification names the kiosk by its id.
    const notification = (await db().doc(`users/${userId}/notifications/${id}`).get()).data()!;
    expect(notification.body).toContain(`at ${broken.kioskId}.`);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(50);
  });

  test('without a usable status an award is refused whole (503, Retry-After) and goes through once mended', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    await breakKiosk(kioskId, { status: 'open' });
    const userId = await seedUser({ currentPoints: 5, totalPoints: 5 });
    const body = { kioskId, userId, plasticCount: 1, metalCount: 1 };

    const refused = await submit(apiKey, body, { 'idempotency-key': 'bottles-1' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('300');
    expect(refused.body).toEqual({
      error: `Kiosk ${kioskId} cannot accept transactions until an operator repairs its record; nothing was awarded`,
      code: 'kiosk-misconfigured',
    });
    expect((await db().collection('transactions').get()).size).toBe(0);
    expect((await db().collection('idempotency').get()).size).toBe(0);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(5);

    await breakKiosk(kioskId, { status: 'available' });
    const accepted = await submit(apiKey, body, { 'idempotency-key': 'bottles-1' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.transaction.newBalance).toBe(35);
  });

  test('a status report mends a kiosk missing only lastUpdated; one it still could not show is refused unchanged', async () => {
    const mendable = await seedKioskWithKey();
    await breakKiosk(mendable.kioskId, { lastUpdated: FieldValue.delete() });
    const mended = await call('POST', `/kiosk/${mendable.kioskId}/status`, {
      body: { status: 'offline' },
      headers: { 'x-api-key': mendable.apiKey },
    });
    expect(mended.status).toBe(200);
    expect(mended.body.kiosk).toMatchObject({ id: mendable.kioskId, status: 'offline' });
    expect((await call('GET', `/kiosk/${mendable.kioskId}`)).status).toBe(200);

    const unshowable = await seedKioskWithKey();
    await breakKiosk(unshowable.kioskId, { location: FieldValue.delete() });
    const before = await db().collection('kiosks').doc(unshowable.kioskId).get();
    const refused = await call('POST', `/kiosk/${unshowable.kioskId}/status`, {
      body: { status: 'offline' },
      headers: { 'x-api-key': unshowable.apiKey },
    });
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual(INTERNAL);
    // Nothing of the report is written; the kiosk is still recorded as seen (§7).
    const { lastSeenAt, ...after } = (await db().collection('kiosks').doc(unshowable.kioskId).get()).data()!;
    expect(after).toEqual(before.data());
    expect(lastSeenAt).toBeInstanceOf(Timestamp);
  });

  test('an operator upsert mends it, keeping what was usable', async () => {
    const kioskId = await seedKiosk({ status: 'maintenance' });
    await breakKiosk(kioskId, { location: FieldValue.delete(), timezone: 42, plasticCount: 'many', metalCount: 7 });
    const res = await call('POST', '/admin/kiosks', {
      headers: await adminHeaders(),
      body: { id: kioskId, name: 'Mended', address: 'Somewhere 1', location: { latitude: 1, longitude: 2 } },
    });
    expect(res.status).toBe(200);
    const expected = {
      id: kioskId,
      name: 'Mended',
      status: 'maintenance',
      timezone: 'UTC',
      plasticCount: 0,
      metalCount: 7,
    };
    expect(res.body.kiosk).toMatchObject(expected);
    const view = await call('GET', `/kiosk/${kioskId}`);
    expect(view.status).toBe(200);
    expect(view.body.kiosk).toMatchObject(expected);
  });

  test('still gets API keys, so its firmware can report while an operator mends it', async () => {
    const kioskId = await seedKiosk();
    await breakKiosk(kioskId, { location: FieldValue.delete() });
    const res = await call('POST', `/admin/kiosks/${kioskId}/keys`, {
      headers: await adminHeaders(),
      body: { label: 'spare' },
    });
    expect(res.status).toBe(201);
    expect(res.body.apiKey).toEqual(expect.any(String));
  });
});
