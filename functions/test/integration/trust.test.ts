/** Trust (contract §17): limits that hold points for review, suspension, and the review itself. */
import { newAlert, alertsCollection } from '../../src/data/alerts';
import { saveRiskConfig } from '../../src/data/riskConfig';
import { auditBooks } from '../../src/services/audit';
import { db, resetEmulators, waitFor, waitForEffects, waitForKioskCount } from './helpers';
import { adminHeaders, call } from './requests';
import { seedKiosk, seedKioskWithKey, seedUser, uniqueId } from './seeds';
import { issueKey } from '../../src/data/kioskKeys';

beforeEach(resetEmulators);

const BERLIN = { latitude: 52.521918, longitude: 13.413215 };
const MUNICH = { latitude: 48.137154, longitude: 11.576124 };
const HOUR = 3_600_000;

const submit = (apiKey: string, body: Record<string, unknown>) =>
  call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey } });
const userOf = async (userId: string) =>
  (await call('GET', `/user/${userId}`, { headers: await adminHeaders() })).body.user;
const earnEntriesOf = async (transactionId: string) =>
  (await db().collection('ledger').where('transaction.id', '==', transactionId).get()).size;
const decide = async (transactionId: string, verb: 'release' | 'reject', reason = 'checked') =>
  call('POST', `/admin/holds/${transactionId}/${verb}`, { body: { reason }, headers: await adminHeaders() });
const kioskAt = async (place: typeof BERLIN) => {
  const kioskId = await seedKiosk(place);
  return { kioskId, apiKey: (await issueKey(kioskId, 'test')).apiKey };
};

describe('kiosk-throughput', () => {
  test('30 simultaneous deposits of 10 items under 100 items in 10 minutes: exactly 10 awarded, 20 held', async () => {
    await saveRiskConfig({ kioskItemsPerMinute: 10 });
    const { kioskId, apiKey } = await seedKioskWithKey();
    const users = await Promise.all(Array.from({ length: 30 }, () => seedUser()));
    const answers = await Promise.all(
      users.map((userId) => submit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(users.map(() => 200));
    const held = answers.filter((answer) => answer.body.transaction.status === 'held');
    expect(answers.length - held.length).toBe(10);
    expect(held).toHaveLength(20);
    for (const { body } of held) {
      expect(body.transaction).toMatchObject({ holdReasons: ['kiosk-throughput'], pointsEarned: 100, newBalance: 0 });
    }
    // Every deposit is counted on the kiosk, held ones included.
    await waitForKioskCount(kioskId, 300);
    // One suspicious alert for the kiosk, open until an operator resolves it.
    const alerts = (await call('GET', '/admin/alerts', { headers: await adminHeaders() })).body.alerts;
    const suspicious = alerts.filter((alert: { kind: string }) => alert.kind === 'suspicious');
    expect(suspicious).toHaveLength(1);
    expect(suspicious[0]).toMatchObject({ kioskId, resolvedAt: null });
    const holds = await call('GET', '/admin/holds?limit=100', { headers: await adminHeaders() });
    expect(holds.body.holds).toHaveLength(20);
    expect((await auditBooks()).differences).toEqual([]);

    const resolved = await call('POST', `/admin/alerts/${suspicious[0].id}/resolve`, { headers: await adminHeaders() });
    expect(resolved.status).toBe(200);
    expect(resolved.body.alert.resolvedAt).not.toBeNull();
    // The next deposit past the limit opens a new one.
    const next = await submit(apiKey, { kioskId, userId: users[0], plasticCount: 1, metalCount: 0 });
    expect(next.body.transaction.status).toBe('held');
    const open = await alertsCollection().where('kioskId', '==', kioskId).where('resolvedAt', '==', null).get();
    expect(open.size).toBe(1);
    expect(open.docs[0].id).not.toBe(suspicious[0].id);
  }, 120_000);

  test('an alert that resolves by itself cannot be resolved by hand; an unknown one is 404', async () => {
    const ref = alertsCollection().doc();
    await ref.set(newAlert('k1', 'silent', 'Not seen', new Date()));
    const answer = await call('POST', `/admin/alerts/${ref.id}/resolve`, { headers: await adminHeaders() });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('alert-resolves-itself');
    const missing = await call('POST', '/admin/alerts/nope/resolve', { headers: await adminHeaders() });
    expect(missing.status).toBe(404);
  });

  test('offline deposits are judged by occurredAt: an hour ago does not crowd now', async () => {
    await saveRiskConfig({ kioskItemsPerMinute: 1 });
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    const occurredAt = new Date(Date.now() - HOUR).toISOString();
    const old = await submit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0, occurredAt });
    const now = await submit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect([old.body.transaction.status, now.body.transaction.status]).toEqual(['awarded', 'awarded']);
    const more = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(more.body.transaction).toMatchObject({ status: 'held', holdReasons: ['kiosk-throughput'] });
  });
});

describe('user-daily-items and the daily cap', () => {
  test('held points count against the cap when held, so a release never passes it', async () => {
    await db().doc('config/rewards').set({ dailyPointsCap: 100 });
    await saveRiskConfig({ userItemsPerDay: 5 });
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    const first = await submit(apiKey, { kioskId, userId, plasticCount: 4, metalCount: 0 });
    expect(first.body.transaction).toMatchObject({ status: 'awarded', pointsEarned: 40, newBalance: 40 });
    const second = await submit(apiKey, { kioskId, userId, plasticCount: 4, metalCount: 0 });
    expect(second.body.transaction).toMatchObject({
      status: 'held',
      holdReasons: ['user-daily-items'],
      pointsEarned: 40,
      newBalance: 40,
    });
    await saveRiskConfig({ userItemsPerDay: null });
    const third = await submit(apiKey, { kioskId, userId, plasticCount: 4, metalCount: 0 });
    expect(third.body.transaction).toMatchObject({ status: 'awarded', pointsEarned: 20, capped: true, newBalance: 60 });
    expect(await userOf(userId)).toMatchObject({ currentPoints: 60, heldPoints: 40, recycledCount: 12 });

    const released = await decide(second.body.transaction.id, 'release');
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ newBalance: 100, hold: { resolution: 'released', reason: 'checked' } });
    expect(await userOf(userId)).toMatchObject({ currentPoints: 100, totalPoints: 100, heldPoints: 0 });
    expect(await earnEntriesOf(second.body.transaction.id)).toBe(1);
    await waitForKioskCount(kioskId, 12);
    expect((await auditBooks()).differences).toEqual([]);
  });
});

describe('impossible-travel', () => {
  /**
   * Travel limited to 250 km/h, a kiosk in Berlin and one in Munich (504 km apart) and a user; `at` a time
   * `offset` ms after `hoursAgo` hours ago, `deposit` one item made then, by the user unless `by` says otherwise.
   */
  const travelling = async (hoursAgo: number) => {
    await saveRiskConfig({ travelKmh: 250 });
    const berlin = await kioskAt(BERLIN);
    const munich = await kioskAt(MUNICH);
    const userId = await seedUser();
    const t0 = Date.now() - hoursAgo * HOUR;
    const at = (offset: number) => new Date(t0 + offset).toISOString();
    const deposit = (kiosk: typeof berlin, occurredAt: string, by: string | null = userId) =>
      submit(kiosk.apiKey, { kioskId: kiosk.kioskId, userId: by, plasticCount: 1, metalCount: 0, occurredAt });
    return { berlin, munich, userId, at, deposit };
  };

  test('too fast between distant kiosks is held; slow enough, or at one kiosk, is not', async () => {
    const { berlin, munich, at, deposit } = await travelling(6);

    expect((await deposit(berlin, at(0))).body.transaction.status).toBe('awarded');
    const fast = await deposit(munich, at(HOUR));
    expect(fast.body.transaction).toMatchObject({ status: 'held', holdReasons: ['impossible-travel'] });
    // Its previous deposit is the held one, at the same kiosk.
    expect((await deposit(munich, at(HOUR + 60_000))).body.transaction.status).toBe('awarded');
    // Slow enough: 504 km in 3 hours.
    expect((await deposit(berlin, at(4 * HOUR + 60_000))).body.transaction.status).toBe('awarded');
  });

  test('judged by occurredAt, not by arrival: an offline upload from before is compared with the one before it', async () => {
    const { berlin, munich, at, deposit } = await travelling(20);

    expect((await deposit(berlin, at(10 * HOUR))).body.transaction.status).toBe('awarded');
    // Uploaded later, made 10 hours before: nothing came before it.
    expect((await deposit(munich, at(0))).body.transaction.status).toBe('awarded');
    // Made 30 minutes after the Berlin deposit: the Berlin one is the one before it.
    const fast = await deposit(munich, at(10 * HOUR + 30 * 60_000));
    expect(fast.body.transaction).toMatchObject({ status: 'held', holdReasons: ['impossible-travel'] });
  });

  test("a claim (§18) is judged on the claimed deposit's kiosk: too fast from the claimer's last deposit is held", async () => {
    const { berlin, munich, userId, at, deposit } = await travelling(6);
    const anonymous = async (offset: number) => (await deposit(munich, at(offset), null)).body.transaction.claim.code;
    const claimAs = async (code: string) =>
      (await call('POST', `/user/${userId}/claims`, { body: { code }, headers: await adminHeaders() })).body;

    await deposit(berlin, at(0));
    const [tooSoon, slowEnough] = [await anonymous(HOUR), await anonymous(4 * HOUR)];
    expect((await claimAs(tooSoon)).transaction).toMatchObject({ status: 'held', holdReasons: ['impossible-travel'] });
    expect((await claimAs(slowEnough)).transaction.status).toBe('awarded');
  });
});

describe('promotions (§16) and holds', () => {
  test("a held deposit's points and breakdown have the promotions; its budget is spent when held, a rejection keeps it spent", async () => {
    const headers = await adminHeaders();
    const promotion = { id: 'held-double', name: 'Double', multiplier: 2, budgetPoints: 1000 };
    expect((await call('POST', '/admin/promotions', { body: promotion, headers })).status).toBe(201);
    const given = async () =>
      (await call('GET', '/admin/promotions', { headers })).body.promotions.find(
        (each: { id: string }) => each.id === promotion.id,
      ).pointsGiven;
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await call('POST', `/admin/users/${userId}/suspend`, { body: { reason: 'x' }, headers });
    const breakdown = [
      { source: 'base', points: 30 },
      { source: 'promotion', promotionId: 'held-double', name: 'Double', points: 30 },
    ];
    const first = await submit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 0 });
    const second = await submit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 0 });
    for (const { body } of [first, second]) {
      expect(body.transaction).toMatchObject({ status: 'held', pointsEarned: 60, newBalance: 0, breakdown });
    }
    expect(await given()).toBe(60);

    expect((await decide(first.body.transaction.id, 'release')).body.newBalance).toBe(60);
    expect((await decide(second.body.transaction.id, 'reject')).status).toBe(200);
    expect(await given()).toBe(60);
    const history = await call('GET', `/user/${userId}/history`, { headers });
    expect(
      history.body.entries.map((entry: { transaction: { breakdown: unknown } }) => entry.transaction.breakdown),
    ).toEqual([breakdown]);
    await waitForKioskCount(kioskId, 6);
    expect((await auditBooks()).differences).toEqual([]);
  });
});

describe('suspension', () => {
  test('every deposit held while suspended, told as being checked; redemptions 403; lifted by unsuspend', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser({ currentPoints: 500, totalPoints: 500, pushToken: uniqueId('token') });
    const headers = await adminHeaders();
    const suspended = await call('POST', `/admin/users/${userId}/suspend`, { body: { reason: 'fraud?' }, headers });
    expect(suspended.status).toBe(200);
    expect(suspended.body.user).toMatchObject({ suspended: true, heldPoints: 0 });

    const res = await submit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 2 });
    expect(res.body.transaction).toMatchObject({
      status: 'held',
      holdReasons: ['user-suspended'],
      pointsEarned: 70,
      newBalance: 500,
    });
    const id = res.body.transaction.id;
    expect(await earnEntriesOf(id)).toBe(0);
    expect(await userOf(userId)).toMatchObject({ currentPoints: 500, heldPoints: 70, suspended: true });
    expect((await db().collection('webhookEvents').where('type', '==', 'points.held').get()).size).toBe(1);
    await waitForEffects(id);
    const notification = (await db().collection(`users/${userId}/notifications`).doc(id).get()).data();
    expect(notification).toMatchObject({ title: 'We are checking your 70 points', data: { status: 'held' } });

    const reward = { id: 'tree', name: 'Plant a tree', cost: 100, kind: 'donation', stock: null };
    expect((await call('POST', '/admin/rewards', { body: reward, headers })).status).toBeLessThan(300);
    const redeemed = await call('POST', `/user/${userId}/redemptions`, {
      body: { rewardId: 'tree' },
      headers: { ...headers, 'idempotency-key': 'r-1' },
    });
    expect(redeemed.status).toBe(403);
    expect(redeemed.body.code).toBe('account-suspended');

    const lifted = await call('POST', `/admin/users/${userId}/unsuspend`, { headers });
    expect(lifted.body.user).toMatchObject({ suspended: false, heldPoints: 70 });
    const after = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(after.body.transaction.status).toBe('awarded');
  });
});

describe('review', () => {
  const heldDeposit = async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser({ pushToken: uniqueId('token') });
    await call('POST', `/admin/users/${userId}/suspend`, { body: { reason: 'x' }, headers: await adminHeaders() });
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 2 });
    return { userId, kioskId, transactionId: res.body.transaction.id as string };
  };

  test('concurrent releases and rejections: exactly one wins, the others are 409 with the hold', async () => {
    const { userId, kioskId, transactionId } = await heldDeposit();
    const answers = await Promise.all([
      decide(transactionId, 'release'),
      decide(transactionId, 'reject'),
      decide(transactionId, 'release'),
      decide(transactionId, 'reject'),
    ]);
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    const resolution = won[0].body.hold.resolution;
    for (const lost of answers.filter((answer) => answer.status !== 200)) {
      expect(lost.status).toBe(409);
      expect(lost.body).toMatchObject({ code: 'hold-resolved', hold: { transactionId, resolution } });
    }
    expect(await earnEntriesOf(transactionId)).toBe(resolution === 'released' ? 1 : 0);
    expect(await userOf(userId)).toMatchObject({
      heldPoints: 0,
      currentPoints: resolution === 'released' ? 70 : 0,
    });
    const notificationId = `${transactionId}-${resolution}`;
    const told = await waitFor(`the ${resolution} notification`, async () =>
      (await db().collection(`users/${userId}/notifications`).doc(notificationId).get()).data(),
    );
    expect(told.type).toBe(resolution === 'released' ? 'points-released' : 'points-rejected');
    await waitFor('the decision pushed', async () =>
      (await db().collection('holdDecisions').doc(transactionId).get()).get('effects.completedAt'),
    );
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(2);
    await waitForKioskCount(kioskId, 5);
    expect((await auditBooks()).differences).toEqual([]);
  });

  test('holds listed newest first, open or all; unknown 404; a reason is required', async () => {
    const first = await heldDeposit();
    const second = await heldDeposit();
    const headers = await adminHeaders();
    const open = await call('GET', '/admin/holds', { headers });
    expect(open.body.holds.map((hold: { transactionId: string }) => hold.transactionId)).toEqual([
      second.transactionId,
      first.transactionId,
    ]);
    expect(open.body.holds[0]).toMatchObject({ userId: second.userId, reasons: ['user-suspended'], points: 70 });
    expect((await decide(first.transactionId, 'reject')).status).toBe(200);
    const stillOpen = await call('GET', '/admin/holds?state=open&limit=1', { headers });
    expect(stillOpen.body.holds.map((hold: { transactionId: string }) => hold.transactionId)).toEqual([
      second.transactionId,
    ]);
    const all = await call('GET', '/admin/holds?state=all&limit=1', { headers });
    expect(all.body.nextCursor).not.toBeNull();
    const page2 = await call('GET', `/admin/holds?state=all&limit=1&cursor=${all.body.nextCursor}`, { headers });
    expect(page2.body.holds[0]).toMatchObject({ transactionId: first.transactionId, resolution: 'rejected' });

    const missing = await decide('no-such-transaction', 'release');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('hold-not-found');
    const noReason = await call('POST', `/admin/holds/${second.transactionId}/release`, { body: {}, headers });
    expect(noReason.status).toBe(400);
    expect((await call('GET', '/admin/holds?state=closed', { headers })).status).toBe(400);
    await Promise.all([waitForKioskCount(first.kioskId, 5), waitForKioskCount(second.kioskId, 5)]);
    expect((await auditBooks()).differences).toEqual([]);
  });
});
