/**
 * Contract §7, alerts: `bin-full` and `error` opened and resolved by status reports,
 * `silent` opened by the scheduled sweep (run through firebase-functions-test: the
 * functions emulator runs no schedules) and resolved by the kiosk's next request;
 * never two open of one kind, one push to the topic `operators` per opened alert,
 * and GET /admin/alerts paged by cursor.
 */
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import type { CloudFunction } from 'firebase-functions/v1';
import { loadProjectParams } from '../../src/cli/params';
import { alertsCollection, newAlert } from '../../src/data/alerts';
import { alertPush, silentKioskSweep } from '../../src/index';
import { recordKioskSeen } from '../../src/services/liveness';
import { sweepSilentKiosks } from '../../src/services/silentSweep';
import { applyStatusReport } from '../../src/services/statusReport';
import { withLostCommitAnswer, writesTo } from './commit-faults';
import { PROJECT_ID, db, functionsTestEnv, resetEmulators, waitFor, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, call, nonAdminHeaders } from './requests';
import { seedKiosk, seedKioskWithKey, uniqueId } from './seeds';

// The handlers this file runs in-process read the params the functions run with.
loadProjectParams(PROJECT_ID);
const testEnv = functionsTestEnv();

beforeEach(resetEmulators);

const MINUTE = 60_000;
const report = (kioskId: string, apiKey: string, body: Record<string, unknown> = {}) =>
  call('POST', `/kiosk/${kioskId}/status`, {
    body: { status: 'available', ...body },
    headers: { 'x-api-key': apiKey },
  });
const alertsOf = async (kioskId: string): Promise<DocumentData[]> =>
  (await alertsCollection().where('kioskId', '==', kioskId).get()).docs.map((doc) => ({ id: doc.id, ...doc.data() }));
const openAlertsOf = async (kioskId: string) => (await alertsOf(kioskId)).filter((alert) => alert.resolvedAt === null);
const openAlertsStored = async (kioskId: string) =>
  (await db().collection('kioskTelemetry').doc(kioskId).get()).get('openAlerts');
/** The pushes to the operators' topic, by alert id. */
async function operatorPushes(): Promise<Map<string, number>> {
  const docs = (await db().collection('pushOutbox').where('message.topic', '==', 'operators').get()).docs;
  const counts = new Map<string, number>();
  for (const doc of docs) {
    const alertId = doc.get('message.data.alertId') as string;
    counts.set(alertId, (counts.get(alertId) ?? 0) + 1);
  }
  return counts;
}
/** Waits until every alert of `kioskId` was pushed, then returns the pushes per alert. */
const pushesOnceSettled = (kioskId: string) =>
  waitFor(
    `one operators push for every alert of ${kioskId}`,
    async () => {
      const [alerts, pushes] = await Promise.all([alertsOf(kioskId), operatorPushes()]);
      return alerts.every((alert) => pushes.has(alert.id)) ? alerts.map((alert) => pushes.get(alert.id)) : undefined;
    },
    60_000,
  );

describe('bin-full and error: opened and resolved by the status report that changes them', () => {
  test('bin-full opens at the threshold, stays one alert while full, resolves when emptied; one push', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    await report(kioskId, apiKey, { fillLevel: { plastic: 89 } });
    expect(await alertsOf(kioskId)).toEqual([]);
    await report(kioskId, apiKey, { fillLevel: { metal: 90 } });
    await report(kioskId, apiKey, { fillLevel: { plastic: 97 } });
    const [alert] = await openAlertsOf(kioskId);
    expect(await alertsOf(kioskId)).toHaveLength(1);
    expect(alert).toMatchObject({ kind: 'bin-full', detail: 'Bin full: metal 90% (alert at 90%)' });
    expect(await openAlertsStored(kioskId)).toEqual({ 'bin-full': alert.id });

    await report(kioskId, apiKey, { fillLevel: { metal: 5 } });
    expect(await openAlertsOf(kioskId)).toHaveLength(1); // plastic is still at 97
    await report(kioskId, apiKey, { fillLevel: { plastic: 0 } });
    expect(await openAlertsOf(kioskId)).toEqual([]);
    const [resolved] = await alertsOf(kioskId);
    expect(resolved.resolvedAt).toBeInstanceOf(Timestamp);
    expect(await openAlertsStored(kioskId)).toEqual({});
    expect(await pushesOnceSettled(kioskId)).toEqual([1]);
    const [push] = (await db().collection('pushOutbox').where('message.data.alertId', '==', alert.id).get()).docs;
    expect(push.get('message')).toEqual({
      topic: 'operators',
      notification: { title: `Kiosk ${kioskId}: bin full`, body: 'Bin full: metal 90% (alert at 90%)' },
      data: { type: 'alert', alertId: alert.id, kioskId, kind: 'bin-full' },
    });
  });

  test('error opens with an error code, stays open while one is set, resolves when it is cleared', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    await report(kioskId, apiKey, { errorCode: 'JAM-3' });
    await report(kioskId, apiKey, { errorCode: 'JAM-4' });
    await report(kioskId, apiKey, { fillLevel: { plastic: 10 } });
    const open = await openAlertsOf(kioskId);
    expect(open).toEqual([expect.objectContaining({ kind: 'error', detail: 'Error code JAM-3' })]);
    await report(kioskId, apiKey, { errorCode: null });
    expect(await openAlertsOf(kioskId)).toEqual([]);
    await report(kioskId, apiKey, { errorCode: 'JAM-5' });
    expect((await openAlertsOf(kioskId)).map((alert) => alert.detail)).toEqual(['Error code JAM-5']);
    expect(await pushesOnceSettled(kioskId)).toEqual([1, 1]);
  });

  test('concurrent reports never open two alerts of one kind', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const full = await Promise.all(
      Array.from({ length: 12 }, () => report(kioskId, apiKey, { fillLevel: { plastic: 95 } })),
    );
    expect(full.map((res) => res.status)).toEqual(Array(12).fill(200));
    expect((await alertsOf(kioskId)).map((alert) => alert.kind)).toEqual(['bin-full']);

    const flapping = await Promise.all(
      Array.from({ length: 12 }, (_, i) => report(kioskId, apiKey, { errorCode: i % 2 === 0 ? `E${i}` : null })),
    );
    expect(flapping.map((res) => res.status)).toEqual(Array(12).fill(200));
    const errorCode = (await db().collection('kioskTelemetry').doc(kioskId).get()).get('errorCode');
    const openErrors = (await openAlertsOf(kioskId)).filter((alert) => alert.kind === 'error');
    expect(openErrors).toHaveLength(errorCode === null ? 0 : 1);
    expect(Object.keys(await openAlertsStored(kioskId)).sort()).toEqual(
      errorCode === null ? ['bin-full'] : ['bin-full', 'error'],
    );
    expect((await pushesOnceSettled(kioskId)).every((count) => count === 1)).toBe(true);
  });
});

describe('a commit whose answer is lost (the SDK resends it) opens one alert, resolves it once', () => {
  withoutBackgroundTriggers();

  test('the status report, the sweep and the liveness write', async () => {
    const kioskId = await seedKiosk();
    const lose = async (collection: string, run: () => Promise<unknown>) => {
      const { injected } = await withLostCommitAnswer(db(), writesTo(collection), run);
      expect(injected).toBe(1);
    };
    await lose('kioskTelemetry', () => applyStatusReport(kioskId, { status: 'available', errorCode: 'E1' }, 90));
    await lose('kioskTelemetry', () => applyStatusReport(kioskId, { status: 'available', errorCode: null }, 90));
    expect((await alertsOf(kioskId)).map((alert) => [alert.kind, alert.resolvedAt === null])).toEqual([
      ['error', false],
    ]);

    await db()
      .collection('kiosks')
      .doc(kioskId)
      .update({ lastSeenAt: Timestamp.fromMillis(Date.now() - 20 * MINUTE) });
    await lose('alerts', () => sweepSilentKiosks(new Date(), 15));
    expect((await openAlertsOf(kioskId)).map((alert) => alert.kind)).toEqual(['silent']);
    await lose('kiosks', () => recordKioskSeen(kioskId, new Date()));
    expect(await openAlertsOf(kioskId)).toEqual([]);
    expect(await alertsOf(kioskId)).toHaveLength(2);
  });
});

describe('the operators push: exactly once per opened alert, also when the trigger is redelivered', () => {
  withoutBackgroundTriggers();

  async function seedAlert(push?: DocumentData) {
    const ref = alertsCollection().doc();
    const data = { ...newAlert('kiosk-9', 'error', 'Error code E1', new Date()), ...(push && { push }) };
    await ref.set(data);
    const event = {
      id: uniqueId('event'),
      params: { alertId: ref.id },
      data: testEnv.firestore.makeDocumentSnapshot(data, `alerts/${ref.id}`),
    };
    return { ref, run: () => testEnv.wrap(alertPush)(event) };
  }

  test('run again and again, also at once: one push, its outcome recorded', async () => {
    const { ref, run } = await seedAlert();
    await run();
    await Promise.all([run(), run(), run()]);
    await run();
    expect((await operatorPushes()).get(ref.id)).toBe(1);
    expect((await ref.get()).get('push')).toEqual({ status: 'sent', messageId: expect.stringMatching(/messages\//) });
  });

  test('a run that died between claiming the push and sending it is not pushed again', async () => {
    const { ref, run } = await seedAlert({ status: 'sending', claimId: 'a-run-that-died' });
    await run();
    expect((await operatorPushes()).size).toBe(0);
    expect((await ref.get()).get('push')).toEqual({ status: 'failed', error: 'interrupted' });
  });
});

describe('silent: opened by the scheduled sweep, resolved by the kiosk’s next request', () => {
  // firebase-functions-test runs a 2nd gen scheduled function as its own scheduled
  // wrapper, but its types list no overload for one.
  const wrapped = testEnv.wrap(silentKioskSweep as unknown as CloudFunction<unknown>) as unknown as () => Promise<void>;
  const sweep = () => wrapped();
  const seenAgo = (kioskId: string, ms: number) =>
    db()
      .collection('kiosks')
      .doc(kioskId)
      .update({ lastSeenAt: Timestamp.fromMillis(Date.now() - ms) });

  test('the sweep opens one alert per silent kiosk, also when sweeps run at once; no other kiosk is silent', async () => {
    const silent = await Promise.all([seedKioskWithKey(), seedKioskWithKey(), seedKioskWithKey()]);
    const recent = await seedKiosk();
    const neverSeen = await seedKiosk();
    const resting = await seedKiosk({ status: 'maintenance' });
    await Promise.all([
      ...silent.map(({ kioskId }) => seenAgo(kioskId, 20 * MINUTE)),
      seenAgo(recent, 10 * MINUTE),
      seenAgo(resting, 60 * MINUTE),
    ]);

    await Promise.all([sweep(), sweep(), sweep(), sweep(), sweep()]);
    await sweep();
    for (const { kioskId } of silent) {
      const alerts = await alertsOf(kioskId);
      expect(alerts).toEqual([expect.objectContaining({ kind: 'silent', resolvedAt: null })]);
      expect(alerts[0].detail).toMatch(/^Not seen since .* \(over 15 minutes\)$/);
      expect(await openAlertsStored(kioskId)).toEqual({ silent: alerts[0].id });
    }
    for (const kioskId of [recent, neverSeen, resting]) expect(await alertsOf(kioskId)).toEqual([]);
    for (const { kioskId } of silent) expect(await pushesOnceSettled(kioskId)).toEqual([1]);

    // The kiosk's next authenticated request resolves it; an anonymous view does not.
    const [back] = silent;
    await call('GET', `/kiosk/${back.kioskId}`);
    expect(await openAlertsOf(back.kioskId)).toHaveLength(1);
    expect((await report(back.kioskId, back.apiKey)).body.kiosk.online).toBe(true);
    expect(await openAlertsOf(back.kioskId)).toEqual([]);
    expect(await openAlertsStored(back.kioskId)).toEqual({});
    await sweep();
    expect(await alertsOf(back.kioskId)).toHaveLength(1);
  });

  test('an operator taking a silent kiosk out of service: the next sweep resolves its alert', async () => {
    const { kioskId } = await seedKioskWithKey();
    await seenAgo(kioskId, 30 * MINUTE);
    await sweep();
    expect(await openAlertsOf(kioskId)).toHaveLength(1);
    await db().collection('kiosks').doc(kioskId).update({ status: 'maintenance' });
    await sweep();
    expect(await openAlertsOf(kioskId)).toEqual([]);
    expect(await alertsOf(kioskId)).toHaveLength(1);
  });
});

describe('GET /admin/alerts', () => {
  /** Alerts stored directly, `at` seconds after a base time; two share one time to test the order by id. */
  async function seedAlerts(kioskId: string, seconds: number[], resolved: number[] = []) {
    const base = Date.parse('2026-11-23T08:00:00.000Z');
    const ids: string[] = [];
    for (const [i, at] of seconds.entries()) {
      const ref = alertsCollection().doc();
      const alert = newAlert(kioskId, 'bin-full', `alert ${i}`, new Date(base + at * 1000));
      await ref.set(
        resolved.includes(i) ? { ...alert, resolvedAt: Timestamp.fromMillis(base + at * 1000 + 1) } : alert,
      );
      ids.push(ref.id);
    }
    return ids;
  }
  /** Newest first, then by id, as the API orders them. */
  const ordered = (ids: string[], seconds: number[]) =>
    ids
      .map((id, i) => ({ id, at: seconds[i] }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map(({ id }) => id);

  test('pages newest first by cursor, never skipping or repeating one while alerts are added', async () => {
    const headers = await adminHeaders();
    const seconds = [10, 20, 30, 30, 40, 50, 60];
    const ids = await seedAlerts('kiosk-a', seconds, [1]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `state=all&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await call('GET', `/admin/alerts?${query}`, { headers });
      expect(res.status).toBe(200);
      seen.push(...res.body.alerts.map((alert: { id: string }) => alert.id));
      cursor = res.body.nextCursor;
      // Alerts opened while paging are newer than every page still to come.
      if (pages++ === 0) await seedAlerts('kiosk-b', [70, 80]);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ordered(ids, seconds));

    const open = await call('GET', '/admin/alerts', { headers });
    expect(open.body.alerts).toHaveLength(8);
    expect(open.body.alerts.map((alert: { id: string }) => alert.id)).not.toContain(ids[1]);
    expect(open.body.nextCursor).toBeNull();
    const all = await call('GET', '/admin/alerts?state=all&limit=100', { headers });
    expect(all.body.alerts.find((alert: { id: string }) => alert.id === ids[1])).toEqual({
      id: ids[1],
      kioskId: 'kiosk-a',
      kind: 'bin-full',
      openedAt: '2026-11-23T08:00:20.000Z',
      resolvedAt: '2026-11-23T08:00:20.001Z',
      detail: 'alert 1',
    });
  });

  test.each([
    ['state=closed', 'state must be one of open, all'],
    ['limit=0', 'limit must be an integer from 1 to 100'],
    ['limit=101', 'limit must be an integer from 1 to 100'],
    ['limit=ten', 'limit must be an integer from 1 to 100'],
    ['cursor=not-a-cursor', 'cursor is not a cursor this service handed out'],
    ['cursor=OTk5OTk5OTk5OTk5LjAueA', 'cursor is not a cursor this service handed out'],
    ['order=asc', 'Unknown query parameter order'],
  ])('%s: 400 naming it', async (query, message) => {
    const res = await call('GET', `/admin/alerts?${query}`, { headers: await adminHeaders() });
    expect([res.status, res.body.error]).toEqual([400, message]);
  });

  test('a user token: 403; none: 401', async () => {
    const user = await call('GET', '/admin/alerts', { headers: await nonAdminHeaders() });
    expect(user.status).toBe(403);
    expect((await call('GET', '/admin/alerts')).status).toBe(401);
  });
});
