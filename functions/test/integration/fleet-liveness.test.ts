/**
 * Contract §7, the fleet: liveness (lastSeenAt, online), telemetry on the status
 * report, and the admin view of the fleet (GET /admin/kiosks).
 */
import { Timestamp } from 'firebase-admin/firestore';
import { loadProjectParams } from '../../src/cli/params';
import { LivenessRecorder, recordKioskSeen } from '../../src/services/liveness';
import { PROJECT_ID, db, resetEmulators } from './helpers';
import { adminHeaders, call, nonAdminHeaders } from './requests';
import { seedKiosk, seedKioskWithKey, uniqueId } from './seeds';

// The handlers this file runs in-process read the params the functions run with.
loadProjectParams(PROJECT_ID);

beforeEach(resetEmulators);

const MINUTE = 60_000;
const kioskDoc = (kioskId: string) => db().collection('kiosks').doc(kioskId);
const telemetryDoc = (kioskId: string) => db().collection('kioskTelemetry').doc(kioskId);
const storedLastSeen = async (kioskId: string) => (await kioskDoc(kioskId).get()).get('lastSeenAt') as Timestamp;
const report = (kioskId: string, apiKey: string, body: Record<string, unknown> = {}) =>
  call('POST', `/kiosk/${kioskId}/status`, {
    body: { status: 'available', ...body },
    headers: { 'x-api-key': apiKey },
  });
const seenAgo = (kioskId: string, ms: number) =>
  kioskDoc(kioskId).update({ lastSeenAt: Timestamp.fromMillis(Date.now() - ms) });
const expectRecent = (timestamp: Timestamp | string) =>
  expect(Date.now() - (typeof timestamp === 'string' ? Date.parse(timestamp) : timestamp.toMillis())).toBeLessThan(
    30_000,
  );

describe('liveness: every request with a kiosk key records lastSeenAt', () => {
  test('a kiosk never seen shows lastSeenAt null and is not online; its first report records it', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const before = await call('GET', `/kiosk/${kioskId}`);
    expect(before.body.kiosk).toMatchObject({ lastSeenAt: null, online: false });

    const res = await report(kioskId, apiKey);
    expect(res.status).toBe(200);
    expect(res.body.kiosk.online).toBe(true);
    expectRecent(res.body.kiosk.lastSeenAt);
    expect((await storedLastSeen(kioskId)).toDate().toISOString()).toBe(res.body.kiosk.lastSeenAt);
    const after = await call('GET', `/kiosk/${kioskId}`);
    expect(after.body.kiosk).toMatchObject({ lastSeenAt: res.body.kiosk.lastSeenAt, online: true });
    expect((await call('GET', '/kiosks')).body.kiosks[0]).toMatchObject({ id: kioskId, online: true });
  });

  test('a transaction request records it, also one refused (400), and so does a key used on another kiosk (403)', async () => {
    const a = await seedKioskWithKey();
    const refused = await call('POST', '/kiosk/transaction', { body: {}, headers: { 'x-api-key': a.apiKey } });
    expect(refused.status).toBe(400);
    expectRecent(await storedLastSeen(a.kioskId));

    const b = await seedKioskWithKey();
    const other = await seedKiosk();
    const forbidden = await report(other, b.apiKey);
    expect(forbidden.status).toBe(403);
    expectRecent(await storedLastSeen(b.kioskId));
    expect(await storedLastSeen(other)).toBeUndefined();
  });

  test('an invalid or revoked key records nothing', async () => {
    const kioskId = await seedKiosk();
    const res = await report(kioskId, 'kr_not-a-key');
    expect(res.status).toBe(401);
    expect(await storedLastSeen(kioskId)).toBeUndefined();
  });

  test('a stored lastSeenAt under a minute old is left as it is; a minute old, it is written again', async () => {
    const fresh = await seedKioskWithKey();
    await seenAgo(fresh.kioskId, 30_000);
    const kept = await storedLastSeen(fresh.kioskId);
    expect((await report(fresh.kioskId, fresh.apiKey)).body.kiosk.lastSeenAt).toBe(kept.toDate().toISOString());
    expect((await storedLastSeen(fresh.kioskId)).isEqual(kept)).toBe(true);

    const stale = await seedKioskWithKey();
    await seenAgo(stale.kioskId, MINUTE + 1000);
    await report(stale.kioskId, stale.apiKey);
    expectRecent(await storedLastSeen(stale.kioskId));
  });

  test('online is computed when read: seen 14 minutes ago is online, 16 minutes ago is not (KIOSK_ONLINE_MINUTES 15)', async () => {
    const recent = await seedKiosk();
    const gone = await seedKiosk();
    await Promise.all([seenAgo(recent, 14 * MINUTE), seenAgo(gone, 16 * MINUTE)]);
    expect((await call('GET', `/kiosk/${recent}`)).body.kiosk.online).toBe(true);
    const goneView = (await call('GET', `/kiosk/${gone}`)).body.kiosk;
    expect(goneView.online).toBe(false);
    expect(goneView.lastSeenAt).toBe((await storedLastSeen(gone)).toDate().toISOString());
    const listed = (await call('GET', '/kiosks')).body.kiosks as { id: string; online: boolean }[];
    expect(Object.fromEntries(listed.map((kiosk) => [kiosk.id, kiosk.online]))).toEqual({
      [recent]: true,
      [gone]: false,
    });
  });
});

describe('liveness across instances (the throttle, on a controlled clock)', () => {
  const t0 = new Date('2026-11-23T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  test('ten instances at once write once; within the minute none writes; a minute on, once again', async () => {
    const kioskId = await seedKiosk();
    const instances = () => Array.from({ length: 10 }, () => new LivenessRecorder());
    const round = async (now: Date) =>
      (await Promise.all(instances().map((recorder) => recorder.record(kioskId, now)))).filter(
        (outcome) => outcome === 'written',
      ).length;

    expect(await round(t0)).toBe(1);
    expect((await storedLastSeen(kioskId)).toDate()).toEqual(t0);
    expect(await round(at(59_999))).toBe(0);
    expect((await storedLastSeen(kioskId)).toDate()).toEqual(t0);
    expect(await round(at(MINUTE))).toBe(1);
    expect((await storedLastSeen(kioskId)).toDate()).toEqual(at(MINUTE));
  });

  test('an instance that knows the stored value is fresh does not even ask Firestore', async () => {
    const kioskId = await seedKiosk();
    const recorder = new LivenessRecorder();
    expect(await recorder.record(kioskId, t0)).toBe('written');
    // Changed behind its back: only a read would notice.
    await kioskDoc(kioskId).update({ lastSeenAt: Timestamp.fromDate(at(-10 * MINUTE)) });
    expect(await recorder.record(kioskId, at(30_000))).toBe('skipped');
    expect((await storedLastSeen(kioskId)).toDate()).toEqual(at(-10 * MINUTE));
    expect(await recorder.record(kioskId, at(MINUTE))).toBe('written');
  });

  test('a key whose kiosk was deleted records nothing', async () => {
    const kioskId = uniqueId('gone');
    expect(await recordKioskSeen(kioskId, t0)).toEqual({ written: false, lastSeenAt: t0 });
    expect((await kioskDoc(kioskId).get()).exists).toBe(false);
  });
});

describe('telemetry on the status report', () => {
  test('is stored apart from the public kiosk, merged per bin, and shown to admins only', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const first = await report(kioskId, apiKey, {
      fillLevel: { plastic: 40, metal: 20 },
      firmwareVersion: '2.4.1',
      errorCode: 'E-7',
    });
    expect(first.status).toBe(200);
    const second = await report(kioskId, apiKey, { status: 'maintenance', fillLevel: { metal: 55 } });
    expect(second.body.kiosk.status).toBe('maintenance');

    const stored = (await telemetryDoc(kioskId).get()).data()!;
    expect(stored).toMatchObject({
      kioskId,
      fillLevel: { plastic: 40, metal: 55 },
      firmwareVersion: '2.4.1',
      errorCode: 'E-7',
    });
    const publicView = (await call('GET', `/kiosk/${kioskId}`)).body.kiosk;
    for (const field of ['fillLevel', 'firmwareVersion', 'errorCode', 'openAlerts']) {
      expect(publicView).not.toHaveProperty(field);
      expect(second.body.kiosk).not.toHaveProperty(field);
      expect((await kioskDoc(kioskId).get()).data()).not.toHaveProperty(field);
    }

    const admin = await call('GET', '/admin/kiosks', { headers: await adminHeaders() });
    expect(admin.status).toBe(200);
    expect(admin.body.kiosks).toEqual([
      {
        ...publicView,
        lastSeenAt: expect.any(String),
        openNow: expect.any(Boolean),
        fillLevel: { plastic: 40, metal: 55 },
        firmwareVersion: '2.4.1',
        errorCode: 'E-7',
        openAlerts: ['error'],
      },
    ]);
  });

  test('a later report keeps what it does not name; errorCode null clears; null elsewhere is as if omitted', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    await report(kioskId, apiKey, { fillLevel: { plastic: 10, metal: 30 }, firmwareVersion: '1.0', errorCode: 'X' });
    await report(kioskId, apiKey, { fillLevel: { plastic: 12, metal: null }, firmwareVersion: null });
    expect((await telemetryDoc(kioskId).get()).data()).toMatchObject({
      fillLevel: { plastic: 12, metal: 30 },
      firmwareVersion: '1.0',
      errorCode: 'X',
    });
    await report(kioskId, apiKey, { errorCode: null });
    expect((await telemetryDoc(kioskId).get()).get('errorCode')).toBeNull();
    await report(kioskId, apiKey);
    expect((await telemetryDoc(kioskId).get()).get('fillLevel')).toEqual({ plastic: 12, metal: 30 });
  });

  test('a report without telemetry writes none; a refused one (400) changes neither status nor telemetry', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    expect((await report(kioskId, apiKey, { status: 'offline' })).status).toBe(200);
    expect((await telemetryDoc(kioskId).get()).exists).toBe(false);
    const refused = await report(kioskId, apiKey, { status: 'available', fillLevel: { plastic: 101 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('fillLevel.plastic must be <= 100');
    expect((await kioskDoc(kioskId).get()).get('status')).toBe('offline');
    expect((await telemetryDoc(kioskId).get()).exists).toBe(false);
  });
});

describe('GET /admin/kiosks', () => {
  test('every kiosk by id with its telemetry, null where never reported, and its open alert kinds', async () => {
    const b = await seedKioskWithKey({ id: uniqueId('b-kiosk') });
    const a = await seedKiosk({ id: uniqueId('a-kiosk'), status: 'maintenance' });
    await report(b.kioskId, b.apiKey, { fillLevel: { plastic: 95 }, errorCode: 'JAM' });
    const res = await call('GET', '/admin/kiosks', { headers: await adminHeaders() });
    expect(res.status).toBe(200);
    expect(res.body.kiosks.map((kiosk: { id: string }) => kiosk.id)).toEqual([a, b.kioskId]);
    expect(res.body.kiosks[0]).toMatchObject({
      status: 'maintenance',
      lastSeenAt: null,
      online: false,
      fillLevel: { plastic: null, metal: null },
      firmwareVersion: null,
      errorCode: null,
      openAlerts: [],
    });
    expect(res.body.kiosks[1]).toMatchObject({
      online: true,
      fillLevel: { plastic: 95, metal: null },
      errorCode: 'JAM',
      openAlerts: ['bin-full', 'error'],
    });
  });

  test('a user token: 403; none: 401', async () => {
    const user = await call('GET', '/admin/kiosks', { headers: await nonAdminHeaders() });
    expect(user.status).toBe(403);
    expect((await call('GET', '/admin/kiosks')).status).toBe(401);
  });
});
