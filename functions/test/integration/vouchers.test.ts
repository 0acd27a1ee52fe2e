/**
 * Partners honour vouchers (contract §12): partners and their keys, rewards with a
 * partner and a life, and a voucher checked and used once by its partner only.
 */
import { Timestamp } from 'firebase-admin/firestore';
import { effectsSweep, voucherUseEffects } from '../../src/index';
import { partnerKeys } from '../../src/data/partners';
import { openBalance } from '../../src/services/ledgerBooks';
import { admin, cli } from './cli-runner';
import { startWebhookReceiver } from '../harness/webhook-receiver';
import { db, functionsTestEnv, resetEmulators, waitFor, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

const testEnv = functionsTestEnv();

beforeEach(resetEmulators);

const DAY_MS = 24 * 60 * 60_000;

async function partnerWithKey(id = uniqueId('partner')) {
  const headers = await adminHeaders();
  expect((await call('POST', '/admin/partners', { body: { id, name: `Café ${id}` }, headers })).status).toBe(201);
  const created = await call('POST', `/admin/partners/${id}/keys`, { body: { label: 'till' }, headers });
  expect(created.status).toBe(201);
  return { partnerId: id, key: created.body.key as string, keyId: created.body.keyId as string };
}

const asPartner = (key: string, extra: Record<string, string> = {}) => ({ 'x-api-key': key, ...extra });

/** A user's voucher of a reward (`partnerId` null: any partner), redeemed through the API. */
async function voucherFor(
  reward: { partnerId?: string | null; validDays?: number } = {},
  pushToken?: string,
): Promise<{ userId: string; redemptionId: string; code: string; createdAt: string }> {
  const headers = await adminHeaders();
  const rewardId = uniqueId('reward');
  const set = await call('POST', '/admin/rewards', {
    body: { id: rewardId, name: 'Coffee', cost: 100, kind: 'voucher', ...reward },
    headers,
  });
  expect(set.status).toBe(201);
  const userId = await seedUser({ currentPoints: 500, totalPoints: 500, pushToken });
  await openBalance(userId, 'test');
  const redeemed = await call('POST', `/user/${userId}/redemptions`, {
    body: { rewardId },
    headers: { ...(await bearerFor(userId)), 'idempotency-key': 'voucher' },
  });
  expect(redeemed.status).toBe(201);
  const { id, code, createdAt } = redeemed.body.redemption;
  return { userId, redemptionId: id, code, createdAt };
}

const check = (code: string, key: string) =>
  call('GET', `/partner/vouchers/${encodeURIComponent(code)}`, { headers: asPartner(key) });
const use = (code: string, key: string, idempotencyKey?: string) =>
  call('POST', `/partner/vouchers/${encodeURIComponent(code)}/use`, {
    headers: asPartner(key, idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  });

describe('partners and partner keys', () => {
  test('POST /admin/partners creates (201), then updates (200); GET lists them by id', async () => {
    const headers = await adminHeaders();
    const first = await call('POST', '/admin/partners', { body: { id: 'kino', name: 'Kino' }, headers });
    expect(first).toMatchObject({ status: 201, body: { success: true, partner: { id: 'kino', name: 'Kino' } } });
    const renamed = await call('POST', '/admin/partners', { body: { id: 'kino', name: 'Kino Mitte' }, headers });
    expect(renamed).toMatchObject({ status: 200, body: { partner: { id: 'kino', name: 'Kino Mitte' } } });
    await call('POST', '/admin/partners', { body: { id: 'cafe', name: 'Café' }, headers });
    const list = await call('GET', '/admin/partners', { headers });
    expect(list.body.partners).toEqual([
      { id: 'cafe', name: 'Café' },
      { id: 'kino', name: 'Kino Mitte' },
    ]);
  });

  test('a non-admin is refused the partner routes', async () => {
    const headers = await bearerFor(uniqueId('user'));
    expect((await call('POST', '/admin/partners', { body: { id: 'x', name: 'X' }, headers })).status).toBe(403);
    expect((await call('GET', '/admin/partners', { headers })).status).toBe(403);
  });

  test('a key is stored by its SHA-256, listed without itself, and revoked at once', async () => {
    const { partnerId, key, keyId } = await partnerWithKey();
    expect(key).toMatch(/^krp_/);
    expect((await db().collection('partnerKeys').doc(keyId).get()).data()).toMatchObject({
      partnerId,
      label: 'till',
      revokedAt: null,
    });
    const headers = await adminHeaders();
    const listed = await call('GET', `/admin/partners/${partnerId}/keys`, { headers });
    expect(listed.body.keys).toEqual([{ keyId, label: 'till', createdAt: expect.any(String), revokedAt: null }]);
    expect(listed.text).not.toContain(key);

    expect((await check('AAAAAAAAAAAA', key)).status).toBe(404);
    const revoked = await call('DELETE', `/admin/partners/${partnerId}/keys/${keyId}`, { headers });
    expect(revoked.status).toBe(200);
    expect((await check('AAAAAAAAAAAA', key)).status).toBe(401);
    expect((await call('DELETE', `/admin/partners/other/keys/${keyId}`, { headers })).status).toBe(404);
  });

  test('keys of an unknown partner: 404', async () => {
    const headers = await adminHeaders();
    expect((await call('POST', '/admin/partners/nobody/keys', { body: {}, headers })).status).toBe(404);
    expect((await call('GET', '/admin/partners/nobody/keys', { headers })).status).toBe(404);
  });

  test('a partner key is 401 on kiosk routes, a kiosk key 401 on partner routes', async () => {
    const { key } = await partnerWithKey();
    const { kioskId, apiKey } = await seedKioskWithKey();
    const asKiosk = await call('POST', '/kiosk/transaction', {
      body: { kioskId, userId: 'someone', plasticCount: 1, metalCount: 0 },
      headers: { 'x-api-key': key },
    });
    expect(asKiosk).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    expect((await check('AAAAAAAAAAAA', apiKey)).status).toBe(401);
    expect((await use('AAAAAAAAAAAA', apiKey)).status).toBe(401);
    expect((await call('GET', '/partner/vouchers/AAAAAAAAAAAA')).status).toBe(401);
  });
});

describe('rewards with a partner and a life', () => {
  test('partnerId must name a partner; validDays 1-730, default 90', async () => {
    const headers = await adminHeaders();
    const reward = { id: 'coffee', name: 'Coffee', cost: 100, kind: 'voucher' };
    const unknown = await call('POST', '/admin/rewards', { body: { ...reward, partnerId: 'nobody' }, headers });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'invalid-argument' } });
    expect(unknown.body.error).toContain('partnerId');
    for (const validDays of [0, 731, 1.5]) {
      expect((await call('POST', '/admin/rewards', { body: { ...reward, validDays }, headers })).status).toBe(400);
    }
    const created = await call('POST', '/admin/rewards', { body: reward, headers });
    expect(created.body.reward).toMatchObject({ partnerId: null, validDays: 90 });
    const { partnerId } = await partnerWithKey();
    const bound = await call('POST', '/admin/rewards', { body: { ...reward, partnerId, validDays: 7 }, headers });
    expect(bound.body.reward).toMatchObject({ partnerId, validDays: 7 });
    const unbound = await call('POST', '/admin/rewards', { body: { ...reward, partnerId: null }, headers });
    expect(unbound.body.reward).toMatchObject({ partnerId: null, validDays: 7 });
    const listed = await call('GET', '/rewards');
    expect(Object.keys(listed.body.rewards[0])).not.toContain('partnerId');
  });

  test('a voucher expires validDays after it is issued; a donation never; the user sees both', async () => {
    const { userId, createdAt } = await voucherFor({ validDays: 3 });
    const page = await call('GET', `/user/${userId}/redemptions`, { headers: await bearerFor(userId) });
    const [redemption] = page.body.redemptions;
    expect(redemption).toMatchObject({ status: 'issued', usedAt: null });
    expect(Date.parse(redemption.expiresAt) - Date.parse(createdAt)).toBe(3 * DAY_MS);
  });
});

describe('GET /partner/vouchers/{code}', () => {
  test('finds a code whatever its case, spaces and hyphens; shows nothing about the user', async () => {
    const { key } = await partnerWithKey();
    const { code, userId } = await voucherFor();
    const written = `${code.slice(0, 4).toLowerCase()}-${code.slice(4, 8)} ${code.slice(8).toLowerCase()}`;
    const res = await check(written, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      voucher: {
        code,
        rewardId: expect.any(String),
        rewardName: 'Coffee',
        status: 'issued',
        expiresAt: expect.any(String),
        usedAt: null,
      },
    });
    expect(res.text).not.toContain(userId);
  });

  test("an unknown code and another partner's voucher are the same 404", async () => {
    const mine = await partnerWithKey();
    const theirs = await partnerWithKey();
    const { code } = await voucherFor({ partnerId: theirs.partnerId });
    const foreign = await check(code, mine.key);
    const unknown = await check('ZZZZZZZZZZZZ', mine.key);
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body }).toEqual({ ...unknown.body });
    expect(foreign.body.code).toBe('voucher-not-found');
    expect((await check(code, theirs.key)).status).toBe(200);
    expect((await use(code, mine.key)).status).toBe(404);
  });

  test('more than 20 unknown codes in 10 minutes: 429 with Retry-After, for known codes too', async () => {
    const { key } = await partnerWithKey();
    const other = await partnerWithKey();
    const { code } = await voucherFor();
    for (let i = 0; i < 20; i++) expect((await check(`GUESS${String(i).padStart(7, '0')}`, key)).status).toBe(404);
    const refused = await check('GUESSXXXXXXX', key);
    expect(refused).toMatchObject({ status: 429, body: { code: 'rate-limited' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect((await check(code, key)).status).toBe(429);
    expect((await use(code, key)).status).toBe(429);
    // Another key is not held up by this one's guessing.
    expect((await check(code, other.key)).status).toBe(200);
  });
  test('the unknown-code limit counts per partner, is taken before the lookup, and a known code costs nothing', async () => {
    const { partnerId, key } = await partnerWithKey();
    const second = await call('POST', `/admin/partners/${partnerId}/keys`, {
      body: { label: 'second till' },
      headers: await adminHeaders(),
    });
    const { code } = await voucherFor();
    for (let i = 0; i < 3; i++) expect((await check(code, key)).status).toBe(200);
    for (let i = 0; i < 17; i++) expect((await check(`GUESS${String(i).padStart(7, '0')}`, key)).status).toBe(404);
    // Three slots are left, for both keys of the partner together.
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) => check(`BURST${String(i).padStart(7, '0')}`, i % 2 ? second.body.key : key)),
    );
    expect(burst.map(({ status }) => status).sort()).toEqual([404, 404, 404, 429, 429, 429]);
    expect((await check(code, second.body.key)).status).toBe(429);
  });
});

describe('POST /partner/vouchers/{code}/use', () => {
  test('used once: the next use is 409 voucher-used with when; the user sees it used', async () => {
    const { key } = await partnerWithKey();
    const { code, userId } = await voucherFor();
    const used = await use(code.toLowerCase(), key);
    expect(used.status).toBe(200);
    expect(used.headers.get('idempotent-replayed')).toBeNull();
    expect(used.body.voucher).toMatchObject({ code, status: 'used', usedAt: expect.any(String) });
    const again = await use(code, key);
    expect(again).toMatchObject({ status: 409, body: { code: 'voucher-used', voucher: used.body.voucher } });
    expect((await check(code, key)).body.voucher).toEqual(used.body.voucher);
    const page = await call('GET', `/user/${userId}/redemptions`, { headers: await bearerFor(userId) });
    expect(page.body.redemptions[0]).toMatchObject({ status: 'used', usedAt: used.body.voucher.usedAt });
  });

  test('the same Idempotency-Key again: the same 200, Idempotent-Replayed; another key: 409', async () => {
    const { key } = await partnerWithKey();
    const { code } = await voucherFor();
    const first = await use(code, key, 'receipt-1');
    const replay = await use(code, key, 'receipt-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await use(code, key, 'receipt-2')).body.code).toBe('voucher-used');
  });

  test('8 uses at once from two keys: exactly one 200, the others 409 voucher-used', async () => {
    const { partnerId, key } = await partnerWithKey();
    const second = await partnerKeys.issueKey(partnerId, 'till 2');
    const { code, redemptionId } = await voucherFor({ partnerId });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => use(code, i % 2 === 0 ? key : second.apiKey)),
    );
    const statuses = answers.map((res) => (res.status === 200 ? 200 : `${res.status} ${res.body.code}`));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === '409 voucher-used')).toHaveLength(7);
    expect((await db().collection('voucherUses').doc(redemptionId).get()).exists).toBe(true);
    // One use, one `redemption.used` webhook event (§13).
    const events = await db().collection('webhookEvents').where('subjectId', '==', redemptionId).get();
    expect(events.docs.map((doc) => doc.get('type')).sort()).toEqual(['redemption.issued', 'redemption.used']);
    const used = JSON.parse(events.docs.find((doc) => doc.get('type') === 'redemption.used')!.get('body'));
    expect(used.data).toMatchObject({ id: redemptionId, status: 'used' });
  });

  test('expired: 409 voucher-expired, and an operator may still cancel it (refunded)', async () => {
    const { key } = await partnerWithKey();
    const { code, redemptionId, userId } = await voucherFor();
    await db()
      .collection('redemptions')
      .doc(redemptionId)
      .update({ expiresAt: Timestamp.fromMillis(Date.now() - 1000) });
    const refused = await use(code, key);
    expect(refused).toMatchObject({ status: 409, body: { code: 'voucher-expired', voucher: { status: 'expired' } } });
    const page = await call('GET', `/user/${userId}/redemptions`, { headers: await bearerFor(userId) });
    expect(page.body.redemptions[0].status).toBe('expired');
    const cancelled = await call('POST', `/admin/redemptions/${redemptionId}/cancel`, {
      body: { reason: 'expired' },
      headers: await adminHeaders(),
    });
    expect(cancelled).toMatchObject({ status: 200, body: { redemption: { status: 'cancelled' }, newBalance: 500 } });
  });

  test('cancelled: 409 voucher-cancelled; a used voucher cannot be cancelled (409 voucher-used, no refund)', async () => {
    const { key } = await partnerWithKey();
    const headers = await adminHeaders();
    const cancelledOne = await voucherFor();
    await call('POST', `/admin/redemptions/${cancelledOne.redemptionId}/cancel`, { body: { reason: 'r' }, headers });
    expect((await use(cancelledOne.code, key)).body.code).toBe('voucher-cancelled');

    const usedOne = await voucherFor();
    expect((await use(usedOne.code, key)).status).toBe(200);
    const refused = await call('POST', `/admin/redemptions/${usedOne.redemptionId}/cancel`, {
      body: { reason: 'r' },
      headers,
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'voucher-used' } });
    expect((await db().collection('users').doc(usedOne.userId).get()).get('currentPoints')).toBe(400);
  });

  test('the user gets a voucher-used notification and a push, once', async () => {
    const { key } = await partnerWithKey();
    const token = uniqueId('phone');
    const { code, userId, redemptionId } = await voucherFor({}, token);
    expect((await use(code, key)).status).toBe(200);
    const usedNotification = () => db().doc(`users/${userId}/notifications/${redemptionId}-used`).get();
    const notification = await waitFor('the voucher-used notification', async () => {
      const snapshot = await usedNotification();
      return snapshot.exists ? snapshot : undefined;
    });
    expect(notification.get('type')).toBe('voucher-used');
    await waitFor('the use told', async () =>
      (await db().collection('voucherUses').doc(redemptionId).get()).get('effects.completedAt'),
    );
    const pushes = await db().collection('pushOutbox').where('message.token', '==', token).get();
    const types = pushes.docs.map((doc) => doc.get('message.data.type')).sort();
    expect(types).toEqual(['redemption', 'voucher-used']);
  });
});

describe('a use whose trigger never ran', () => {
  withoutBackgroundTriggers();

  test('the sweep tells the user once; a late trigger after it tells nothing more', async () => {
    const { key } = await partnerWithKey();
    const token = uniqueId('phone');
    const { code, userId, redemptionId } = await voucherFor({}, token);
    expect((await use(code, key)).status).toBe(200);
    const path = `voucherUses/${redemptionId}`;
    await db()
      .doc(path)
      .update({ usedAt: Timestamp.fromMillis(Date.now() - 10 * 60_000) });
    const sweep = testEnv.wrap(effectsSweep as never) as unknown as () => Promise<void>;
    await sweep();
    const late = testEnv.wrap(voucherUseEffects as never) as unknown as (event: unknown) => Promise<void>;
    const snapshot = await db().doc(path).get();
    await late({
      id: 'late',
      params: { redemptionId },
      data: testEnv.firestore.makeDocumentSnapshot(snapshot.data()!, path),
    });
    const stored = (await db().doc(path).get()).data()!;
    expect(stored.effectsPending).toBeUndefined();
    expect(stored.effects).toMatchObject({ notificationId: `${redemptionId}-used`, push: { status: 'sent' } });
    const notifications = await db().collection(`users/${userId}/notifications`).get();
    expect(notifications.docs.map((doc) => doc.get('type'))).toEqual(['voucher-used']);
    expect((await db().collection('pushOutbox').where('message.token', '==', token).get()).size).toBe(1);
  });
});

describe('a voucher stored before vouchers had a life', () => {
  test('reads as issued, never expiring, not used; migrate gives its code a lookup; then a partner uses it', async () => {
    const { key } = await partnerWithKey();
    const userId = await seedUser();
    const code = '0ABC0DE12345';
    await db()
      .collection('redemptions')
      .doc('old-voucher')
      .set({
        userId,
        rewardId: 'coffee',
        rewardName: 'Coffee',
        kind: 'voucher',
        cost: 100,
        code,
        status: 'issued',
        createdAt: Timestamp.fromMillis(Date.now() - 400 * DAY_MS),
      });
    const page = await call('GET', `/user/${userId}/redemptions`, { headers: await bearerFor(userId) });
    expect(page.body.redemptions[0]).toMatchObject({ status: 'issued', expiresAt: null, usedAt: null });
    expect((await check(code, key)).status).toBe(404);

    const dryRun = JSON.parse((await cli('migrate')).stdout);
    expect(dryRun.voucherCodesIndexed).toBe(1);
    expect(JSON.parse(await admin('migrate', '--apply')).voucherCodesIndexed).toBe(1);
    expect(JSON.parse(await admin('migrate', '--apply')).voucherCodesIndexed).toBe(0);
    expect((await check(code, key)).body.voucher).toMatchObject({ status: 'issued', expiresAt: null });
    expect((await use(code, key)).status).toBe(200);
  });
});

describe('operator CLI: partner:upsert, partner:list, partner-key:create, partner-key:revoke', () => {
  test('a partner and a key made on the CLI check a voucher; revoked there, the key is refused', async () => {
    const upserted = JSON.parse(await admin('partner:upsert', '--id', 'kaffee', '--name', 'Kaffee'));
    expect(upserted).toEqual({ id: 'kaffee', name: 'Kaffee' });
    expect(await admin('partner:list')).toMatch(/kaffee\s+Kaffee/);
    expect(JSON.parse(await admin('partner:list', '--json'))).toEqual([{ id: 'kaffee', name: 'Kaffee' }]);
    const issued = JSON.parse(await admin('partner-key:create', '--partner', 'kaffee', '--label', 'till'));
    expect(issued).toMatchObject({ partnerId: 'kaffee', keyId: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const { code } = await voucherFor({ partnerId: 'kaffee' });
    expect((await check(code, issued.key)).status).toBe(200);
    expect(await admin('partner-key:revoke', '--partner', 'kaffee', '--key', issued.keyId)).toContain('Revoked');
    expect((await check(code, issued.key)).status).toBe(401);
    const unknown = await cli('partner-key:create', '--partner', 'nobody');
    expect(unknown.code).not.toBe(0);
  });
});

describe("webhooks and vouchers (§13): no code to anyone, a partner's webhook of its own rewards", () => {
  const register = async (body: Record<string, unknown>) =>
    call('POST', '/admin/webhooks', { headers: await adminHeaders(), body: { url: 'http://127.0.0.1:9/in', ...body } });

  test('a webhook for a partner: 404 for an unknown partner, 400 for an event it cannot take, shown with its partner', async () => {
    expect((await register({ events: ['redemption.used'], partnerId: 'no-such-partner' })).status).toBe(404);
    const { partnerId } = await partnerWithKey();
    const issued = await register({ events: ['redemption.used', 'redemption.issued'], partnerId });
    expect(issued).toMatchObject({ status: 400, body: { code: 'invalid-argument' } });
    const made = await register({ events: ['redemption.used', 'redemption.cancelled'], partnerId });
    expect(made).toMatchObject({ status: 201, body: { webhook: { partnerId } } });
    const operators = await register({ events: ['redemption.used'] });
    expect(operators.body.webhook.partnerId).toBeNull();
    const listed = await call('GET', '/admin/webhooks', { headers: await adminHeaders() });
    expect(listed.body.webhooks).toEqual([
      expect.objectContaining({ id: made.body.webhook.id, partnerId }),
      expect.objectContaining({ id: operators.body.webhook.id, partnerId: null }),
    ]);
  });

  test("events carry no code; a partner's webhook gets only its rewards' uses and cancels, without the user", async () => {
    const mine = await partnerWithKey();
    const theirs = await partnerWithKey();
    const partnerReceiver = await startWebhookReceiver();
    const operatorReceiver = await startWebhookReceiver();
    try {
      const events = ['redemption.issued', 'redemption.used', 'redemption.cancelled'];
      const partnerHook = await register({
        url: partnerReceiver.url,
        events: ['redemption.used', 'redemption.cancelled'],
        partnerId: mine.partnerId,
      });
      expect(partnerHook.status).toBe(201);
      expect((await register({ url: operatorReceiver.url, events })).status).toBe(201);

      const used = await voucherFor({ partnerId: mine.partnerId });
      expect((await use(used.code, mine.key)).status).toBe(200);
      const cancelled = await voucherFor({ partnerId: mine.partnerId });
      const cancel = await call('POST', `/admin/redemptions/${cancelled.redemptionId}/cancel`, {
        body: { reason: 'closed' },
        headers: await adminHeaders(),
      });
      expect(cancel.status).toBe(200);
      const foreign = await voucherFor({ partnerId: theirs.partnerId });
      expect((await use(foreign.code, theirs.key)).status).toBe(200);

      const toOperator = await waitFor(
        'six events at the operator receiver',
        async () => (operatorReceiver.received.length >= 6 ? operatorReceiver.received : undefined),
        30_000,
        async () => `it has ${operatorReceiver.received.length}`,
      );
      const toPartner = await waitFor(
        "two events at the partner's receiver",
        async () => (partnerReceiver.received.length >= 2 ? partnerReceiver.received : undefined),
        30_000,
        async () => `it has ${partnerReceiver.received.length}`,
      );
      const codes = [used.code, cancelled.code, foreign.code];
      for (const { body } of [...toOperator, ...toPartner]) {
        for (const code of codes) expect(body).not.toContain(code);
        expect(JSON.parse(body).data).not.toHaveProperty('code');
      }
      expect(toOperator.map(({ body }) => JSON.parse(body).data.userId)).toEqual(
        Array.from({ length: 6 }, () => expect.any(String)),
      );
      const partnerEvents = toPartner.map(({ body }) => JSON.parse(body));
      expect(partnerEvents.map(({ type, data }) => `${type} ${data.id}`).sort()).toEqual(
        [`redemption.cancelled ${cancelled.redemptionId}`, `redemption.used ${used.redemptionId}`].sort(),
      );
      for (const { data } of partnerEvents) expect(data).not.toHaveProperty('userId');
      const partnerDeliveries = await db()
        .collection('webhookDeliveries')
        .where('webhookId', '==', partnerHook.body.webhook.id)
        .get();
      expect(partnerDeliveries.size).toBe(2);
    } finally {
      await Promise.all([partnerReceiver.close(), operatorReceiver.close()]);
    }
  });
});
