/**
 * Deposits without a user and their claim codes (contract §18): recorded and counted
 * on the kiosk, worth their points at deposit time, credited to nobody; claimed once,
 * by one user, as if they had deposited then.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Timestamp } from 'firebase-admin/firestore';
import { claimCodeRef } from '../../src/data/claims';
import { auditBooks } from '../../src/services/audit';
import { claimDeposit } from '../../src/services/claims';
import { withLostCommitAnswer, writesTo } from './commit-faults';
import { openBalance } from '../../src/services/ledgerBooks';
import { db, resetEmulators, waitFor, waitForEffects, waitForKioskCount } from './helpers';
import { API_URL, adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const DAY_MS = 24 * 60 * 60_000;

const deposit = (apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey, ...headers } });

async function claim(userId: string, code: string, headers: Record<string, string> = {}, as = userId) {
  return call('POST', `/user/${userId}/claims`, { body: { code }, headers: { ...(await bearerFor(as)), ...headers } });
}

/** An anonymous deposit of `plasticCount` plastic items (10 points each) at a new kiosk; its answer. */
async function anonymousDeposit(plasticCount = 3, extra: Record<string, unknown> = {}) {
  const { kioskId, apiKey } = await seedKioskWithKey({ name: 'Central Station' });
  const res = await deposit(apiKey, { kioskId, userId: null, plasticCount, metalCount: 0, ...extra });
  expect(res.status).toBe(200);
  return { kioskId, apiKey, transaction: res.body.transaction, body: res.body };
}

describe('anonymous deposits (userId null)', () => {
  test('recorded with a claim code, worth its points, counted on the kiosk, told to nobody', async () => {
    const occurredAt = new Date(Date.now() - 2 * DAY_MS);
    const { kioskId, transaction, body } = await anonymousDeposit(3, { occurredAt: occurredAt.toISOString() });
    expect(body).toEqual({
      success: true,
      transaction: {
        id: transaction.id,
        userId: null,
        kioskId,
        plasticCount: 3,
        metalCount: 0,
        totalItems: 3,
        pointsEarned: 30,
        capped: false,
        newBalance: null,
        occurredAt: occurredAt.toISOString(),
        breakdown: [{ source: 'base', points: 30 }],
        status: 'unclaimed',
        holdReasons: [],
        claim: {
          code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{12}$/),
          expiresAt: new Date(occurredAt.getTime() + 30 * DAY_MS).toISOString(),
        },
      },
      pushNotification: false,
    });
    // One read finds the code: its lookup document, keyed by the code's hash.
    const entry = await claimCodeRef(transaction.claim.code).get();
    expect(entry.data()).toEqual({
      transactionId: transaction.id,
      kioskId,
      plasticCount: 3,
      metalCount: 0,
      occurredAt: Timestamp.fromDate(occurredAt),
      breakdown: [{ source: 'base', points: 30 }],
    });
    expect(entry.id).not.toContain(transaction.claim.code);

    const stored = await waitForEffects(transaction.id);
    expect(stored).toMatchObject({ userId: null, status: 'unclaimed', effects: { kioskCounted: true } });
    expect(stored.effects.notificationId).toBeUndefined();
    expect(await waitForKioskCount(kioskId, 3)).toMatchObject({ plasticCount: 3 });
    expect((await db().collection('ledger').where('transaction.id', '==', transaction.id).get()).size).toBe(0);
    expect(await auditBooks()).toMatchObject({ kiosks: 1, transactions: 1, differences: [] });
  });

  test('a replay answers the same code; a missing userId stays 400; a batch takes null items', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const body = { kioskId, userId: null, plasticCount: 1, metalCount: 1 };
    const first = await deposit(apiKey, body, { 'idempotency-key': 'receipt-1' });
    const again = await deposit(apiKey, body, { 'idempotency-key': 'receipt-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const missing = await deposit(apiKey, { kioskId, plasticCount: 1, metalCount: 0 });
    expect(missing).toMatchObject({ status: 400, body: { code: 'invalid-argument' } });

    const userId = await seedUser();
    const batch = await call('POST', '/kiosk/transactions/batch', {
      headers: { 'x-api-key': apiKey },
      body: {
        transactions: [
          { kioskId, userId: null, plasticCount: 2, metalCount: 0, idempotencyKey: 'b-1' },
          { kioskId, userId, plasticCount: 1, metalCount: 0, idempotencyKey: 'b-2' },
          { kioskId, userId: null, plasticCount: 0, metalCount: 1, idempotencyKey: 'b-3' },
        ],
      },
    });
    expect(batch.body.results.map((r: any) => [r.status, r.transaction.status])).toEqual([
      [200, 'unclaimed'],
      [200, 'awarded'],
      [200, 'unclaimed'],
    ]);
    const codes = batch.body.results.map((r: any) => r.transaction.claim?.code);
    expect(new Set(codes).size).toBe(3);
    expect(batch.body.results[0].transaction).toMatchObject({ pointsEarned: 20, userId: null });
    expect(batch.body.results[2].transaction).toMatchObject({ pointsEarned: 20, userId: null });
    await waitForKioskCount(kioskId, 6);

    // The console's count of the kiosk's unclaimed deposits: 3, then 2 once one is claimed.
    const unclaimed = async () =>
      (await call('GET', `/admin/kiosks/${kioskId}/unclaimed`, { headers: await adminHeaders() })).body;
    expect(await unclaimed()).toEqual({ success: true, unclaimed: 3 });
    expect((await claim(userId, codes[0])).status).toBe(200);
    expect(await unclaimed()).toEqual({ success: true, unclaimed: 2 });
    const unknown = await call('GET', '/admin/kiosks/nowhere/unclaimed', { headers: await adminHeaders() });
    expect(unknown.status).toBe(404);
  });
});

describe('POST /user/{id}/claims', () => {
  test("awards the deposit as the user's of then: cap of that day, earn entry, recycledCount, notification, push, webhook", async () => {
    const occurredAt = new Date(Date.now() - 3 * DAY_MS);
    const day = occurredAt.toISOString().slice(0, 10);
    const { transaction, kioskId } = await anonymousDeposit(30, { occurredAt: occurredAt.toISOString() });
    await waitForEffects(transaction.id);
    const userId = await seedUser({ currentPoints: 100, totalPoints: 100, pushToken: 'device-claim' });
    await openBalance(userId, 'test');
    // 4,900 of that day's 5,000 earned already: the claim's 300 points are cut to 100.
    await db()
      .doc(`users/${userId}`)
      .update({ earnedByDay: { [day]: 4900 } });

    const written = transaction.claim.code.toLowerCase().replace(/(.{4})/g, '$1 - ');
    const res = await claim(userId, written);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      transaction: {
        ...transaction,
        userId,
        pointsEarned: 100,
        capped: true,
        breakdown: [{ source: 'base', points: 100 }],
        newBalance: 200,
        status: 'awarded',
        claimedAt: expect.any(String),
      },
      newBalance: 200,
    });
    const user = (await db().doc(`users/${userId}`).get()).data()!;
    expect(user).toMatchObject({ currentPoints: 200, totalPoints: 200, recycledCount: 30 });
    expect(user.earnedByDay[day]).toBe(5000);
    const entry = (await db().collection('ledger').doc(transaction.id).get()).data()!;
    expect(entry).toMatchObject({ userId, kind: 'earn', points: 100, balanceAfter: 200 });

    const told = await waitFor('the claimer to be told', async () => {
      const data = (await db().doc(`transactions/${transaction.id}`).get()).data()!;
      return data.effects?.completedAt ? data : undefined;
    });
    expect(told.effects).toMatchObject({
      kioskCounted: true,
      notificationId: transaction.id,
      push: { status: 'sent' },
    });
    const notification = (await db().doc(`users/${userId}/notifications/${transaction.id}`).get()).data()!;
    expect(notification).toMatchObject({ type: 'transaction', title: 'You earned 100 points' });
    const events = await db().collection('webhookEvents').where('subjectId', '==', transaction.id).get();
    expect(events.docs.map((doc) => doc.get('type'))).toEqual(['transaction.awarded']);
    const awarded = JSON.parse(events.docs[0].get('body')).data;
    expect(awarded).toMatchObject({ id: transaction.id, userId, status: 'awarded', pointsEarned: 100 });
    expect(awarded.claim).toBeUndefined();
    // The kiosk counted it once, when it was recorded.
    expect((await db().doc(`kiosks/${kioskId}`).get()).data()).toMatchObject({ plasticCount: 30 });
    expect(await auditBooks()).toMatchObject({ users: 1, entries: 2, transactions: 1, differences: [] });

    // The history shows it as the user's.
    const history = await call('GET', `/user/${userId}/history`, { headers: await bearerFor(userId) });
    expect(JSON.stringify(history.body)).toContain(transaction.id);
  });

  test("promotions (§16): applied and spent at deposit time; what the claim's cap cuts goes back to the budget", async () => {
    const headers = await adminHeaders();
    const promotion = { id: uniqueId('double'), name: 'Double points', multiplier: 2, budgetPoints: 1000 };
    expect((await call('POST', '/admin/promotions', { body: promotion, headers })).status).toBe(201);
    const givenBy = async () =>
      (await call('GET', '/admin/promotions', { headers })).body.promotions.find((p: any) => p.id === promotion.id)
        .pointsGiven;
    const { transaction, kioskId } = await anonymousDeposit(30);
    const promoted = { source: 'promotion', promotionId: promotion.id, name: promotion.name };
    expect(transaction).toMatchObject({
      pointsEarned: 600,
      breakdown: [
        { source: 'base', points: 300 },
        { ...promoted, points: 300 },
      ],
    });
    expect(await givenBy()).toBe(300);

    // 4,600 of today's 5,000 earned already: the cap leaves 400, cut from the promotion first.
    const userId = await seedUser();
    await db()
      .doc(`users/${userId}`)
      .update({ earnedByDay: { [transaction.occurredAt.slice(0, 10)]: 4600 } });
    const claimed = await claim(userId, transaction.claim.code);
    expect(claimed.body.transaction).toMatchObject({
      pointsEarned: 400,
      capped: true,
      breakdown: [
        { source: 'base', points: 300 },
        { ...promoted, points: 100 },
      ],
    });
    expect(await givenBy()).toBe(100);
    await waitForKioskCount(kioskId, 30);
    expect(await auditBooks()).toMatchObject({ differences: [] });
  });

  test('trust (§17): kiosk-throughput counted at deposit, held when claimed; a suspended claimer is refused', async () => {
    await db().doc('config/risk').set({ kioskItemsPerMinute: 1, userItemsPerDay: null, travelKmh: null });
    const { transaction } = await anonymousDeposit(30);
    expect(transaction).toMatchObject({ status: 'unclaimed', holdReasons: ['kiosk-throughput'] });
    const userId = await seedUser();
    const held = await claim(userId, transaction.claim.code);
    expect(held).toMatchObject({ status: 200, body: { transaction: { status: 'held', userId } } });
    expect((await db().collection('ledger').doc(transaction.id).get()).exists).toBe(false);
    expect((await db().doc(`users/${userId}`).get()).get('heldPoints')).toBe(300);

    await db().doc('config/risk').delete();
    const other = await anonymousDeposit(2);
    const suspended = await seedUser();
    const headers = await adminHeaders();
    expect((await call('POST', `/admin/users/${suspended}/suspend`, { body: { reason: 'r' }, headers })).status).toBe(
      200,
    );
    expect(await claim(suspended, other.transaction.claim.code)).toMatchObject({
      status: 403,
      body: { code: 'account-suspended' },
    });
    await waitForKioskCount(other.kioskId, 2);
    expect(await auditBooks()).toMatchObject({ differences: [] });
  });

  test('two users claiming one code at once: one 200, one 409 claim-used, one award', async () => {
    const { transaction, kioskId } = await anonymousDeposit(5);
    const [alice, bob] = [await seedUser(), await seedUser()];
    const answers = await Promise.all([claim(alice, transaction.claim.code), claim(bob, transaction.claim.code)]);
    const statuses = answers.map((res) => (res.status === 200 ? 200 : `${res.status} ${res.body.code}`)).sort();
    expect(statuses).toEqual([200, '409 claim-used']);
    const winner = answers.find((res) => res.status === 200)!.body.transaction.userId;
    const entries = await db().collection('ledger').where('kind', '==', 'earn').get();
    expect(entries.docs.map((doc) => doc.get('userId'))).toEqual([winner]);
    expect((await db().collection('claims').doc(transaction.id).get()).get('userId')).toBe(winner);
    // A later claim, by the winner too, is refused: the code is used.
    expect((await claim(winner, transaction.claim.code)).body.code).toBe('claim-used');
    await waitForKioskCount(kioskId, 5);
    expect(await auditBooks()).toMatchObject({ differences: [] });
  });

  test("a claim whose commit's answer is lost is answered as its own, awarded once", async () => {
    // The service in this process, as the function runs it: its params as functions/.env sets them.
    process.env.OFFLINE_MAX_DAYS ??= '7';
    process.env.CLAIM_VALID_DAYS ??= '30';
    const { transaction, kioskId } = await anonymousDeposit(4);
    const userId = await seedUser();
    const { result, injected } = await withLostCommitAnswer(db(), writesTo('claims'), () =>
      claimDeposit(userId, transaction.claim.code, undefined),
    );
    expect(injected).toBe(1);
    expect(result).toMatchObject({ replayed: false, newBalance: 40, transaction: { userId, pointsEarned: 40 } });
    const entries = await db().collection('ledger').where('userId', '==', userId).get();
    expect(entries.docs.map((doc) => doc.get('points'))).toEqual([40]);
    await waitForKioskCount(kioskId, 4);
    expect(await auditBooks()).toMatchObject({ differences: [] });
  });

  test('Idempotency-Key: the same key and code replays; another code with the key is 422', async () => {
    const { transaction } = await anonymousDeposit(2);
    const other = await anonymousDeposit(1);
    const userId = await seedUser();
    const first = await claim(userId, transaction.claim.code, { 'idempotency-key': 'claim-1' });
    const again = await claim(userId, transaction.claim.code, { 'idempotency-key': 'claim-1' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await claim(userId, other.transaction.claim.code, { 'idempotency-key': 'claim-1' });
    expect(reused).toMatchObject({ status: 422, body: { code: 'idempotency-key-reused' } });
    expect((await db().doc(`users/${userId}`).get()).get('currentPoints')).toBe(20);
  });

  test('expired: 409 claim-expired; unknown: 404 claim-not-found; unknown user 404; others 403; an admin may', async () => {
    const { transaction } = await anonymousDeposit(2);
    const userId = await seedUser();
    await db()
      .doc(`transactions/${transaction.id}`)
      .update({ 'claim.expiresAt': Timestamp.fromMillis(Date.now() - 1000) });
    expect(await claim(userId, transaction.claim.code)).toMatchObject({
      status: 409,
      body: { code: 'claim-expired' },
    });
    expect(await claim(userId, 'ZZZZ-ZZZZ-ZZZZ')).toMatchObject({ status: 404, body: { code: 'claim-not-found' } });
    expect(await claim(userId, 'not a code at all')).toMatchObject({ status: 404, body: { code: 'claim-not-found' } });

    const fresh = await anonymousDeposit(4);
    expect((await claim(userId, fresh.transaction.claim.code, {}, uniqueId('stranger'))).status).toBe(403);
    const ghost = uniqueId('ghost');
    const byAdmin = await call('POST', `/user/${ghost}/claims`, {
      body: { code: fresh.transaction.claim.code },
      headers: await adminHeaders(),
    });
    expect(byAdmin).toMatchObject({ status: 404, body: { code: 'not-found' } });
    const granted = await call('POST', `/user/${userId}/claims`, {
      body: { code: fresh.transaction.claim.code },
      headers: await adminHeaders(),
    });
    expect(granted).toMatchObject({ status: 200, body: { newBalance: 40, transaction: { userId } } });
    // The audit compares the kiosks' counters with their transactions: once their triggers have counted them.
    await waitForKioskCount(transaction.kioskId, 2);
    await waitForKioskCount(fresh.kioskId, 4);
    expect(await auditBooks()).toMatchObject({ differences: [] });
  });

  test('more than 20 unknown codes in 10 minutes: 429 with Retry-After, known codes too; counted before the lookup', async () => {
    const { transaction } = await anonymousDeposit(1);
    const userId = await seedUser();
    const other = await seedUser();
    for (let i = 0; i < 17; i++) {
      expect((await claim(userId, `GUESS${String(i).padStart(7, '0')}`)).status).toBe(404);
    }
    // Guesses at once cannot look up more than the limit: 3 slots are left.
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) => claim(userId, `BURST${String(i).padStart(7, '0')}`)),
    );
    expect(burst.map(({ status }) => status).sort()).toEqual([404, 404, 404, 429, 429, 429]);
    const refused = await claim(userId, transaction.claim.code);
    expect(refused).toMatchObject({ status: 429, body: { code: 'rate-limited' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    // Another user is not held up, and a known code costs nothing.
    expect((await claim(other, transaction.claim.code)).status).toBe(200);
  });
});

describe('the kiosk simulator (npm run kiosk)', () => {
  test('deposit --anonymous prints the claim code as the kiosk shows it, with its QR code; the code claims', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const journal = join(mkdtempSync(join(tmpdir(), 'kiosk-claims-')), 'journal.json');
    const args = ['deposit', '--anonymous', '--plastic', '3', '--kiosk', kioskId, '--key', apiKey, '--api', API_URL];
    const cli = join(__dirname, '..', '..', '..', 'kiosk-simulator', 'cli.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, ...args, '--journal', journal]);
    const shown =
      /claim code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}): claim your points in the app until \d{4}-\d\d-\d\d/.exec(
        stdout,
      );
    expect(shown).not.toBeNull();
    // The QR code: rows of half blocks, as wide as each other.
    const rows = stdout.split('\n').filter((line) => /^[ █▀▄]+$/.test(line));
    expect(rows.length).toBeGreaterThan(10);
    expect(new Set(rows.map((row) => row.length)).size).toBe(1);
    const userId = await seedUser();
    expect(await claim(userId, shown![1])).toMatchObject({ status: 200, body: { newBalance: 30 } });
  });
});
