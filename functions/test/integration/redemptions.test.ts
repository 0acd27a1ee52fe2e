import { redemptionEffects } from '../../src/index';
import { openBalance } from '../../src/services/ledgerBooks';
import { admin, cli } from './cli-runner';
import { db, functionsTestEnv, resetEmulators, waitFor, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedUser, uniqueId } from './seeds';

const testEnv = functionsTestEnv();

/** A delivery of the redemption trigger's event `eventId` for the stored redemption, to run as often as a test likes. */
async function redemptionEvent(id: string, eventId: string): Promise<() => Promise<unknown>> {
  const stored = (await db().collection('redemptions').doc(id).get()).data()!;
  const wrapped = testEnv.wrap(redemptionEffects);
  const event = {
    id: eventId,
    params: { redemptionId: id },
    data: testEnv.firestore.makeDocumentSnapshot(stored, `redemptions/${id}`),
  };
  return () => wrapped(event);
}

beforeEach(resetEmulators);

const CODE = /^[0-9A-HJKMNP-TV-Z]{12}$/;

interface RewardFields {
  id?: string;
  name?: string;
  description?: string;
  cost?: number;
  kind?: 'voucher' | 'donation';
  stock?: number | null;
  active?: boolean;
}

async function setReward(fields: RewardFields = {}, headers?: Record<string, string>) {
  const body = { id: uniqueId('reward'), name: 'Coffee', cost: 300, kind: 'voucher', stock: 5, ...fields };
  return call('POST', '/admin/rewards', { body, headers: headers ?? (await adminHeaders()) });
}

/** A user with `points` to spend, opened in the ledger as the backfill opens a balance, so the audit holds. */
async function userWith(points: number, pushToken?: string): Promise<string> {
  const userId = await seedUser({ currentPoints: points, totalPoints: points, pushToken });
  await openBalance(userId, 'test');
  return userId;
}

const redeem = (userId: string, rewardId: string, key: string | undefined, headers: Record<string, string>) =>
  call('POST', `/user/${userId}/redemptions`, {
    body: { rewardId },
    headers: { ...headers, ...(key !== undefined && { 'idempotency-key': key }) },
  });

const userDoc = async (userId: string) => (await db().collection('users').doc(userId).get()).data()!;
const stockOf = async (rewardId: string) => (await db().collection('rewards').doc(rewardId).get()).get('stock');

describe('the catalog: POST /admin/rewards, GET /rewards', () => {
  test('creates (201) and updates (200, omitted fields kept); lists the active ones cheapest first', async () => {
    const headers = await adminHeaders();
    const created = await setReward({ id: 'coffee', cost: 500, stock: 2 }, headers);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      reward: {
        id: 'coffee',
        name: 'Coffee',
        description: '',
        cost: 500,
        kind: 'voucher',
        available: true,
        stock: 2,
        active: true,
        partnerId: null,
        validDays: 90,
      },
    });
    const updated = await call('POST', '/admin/rewards', {
      body: { id: 'coffee', name: 'Coffee to go', cost: 450, kind: 'voucher' },
      headers,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.reward).toMatchObject({ name: 'Coffee to go', cost: 450, stock: 2, available: true });

    await setReward({ id: 'tree', name: 'Plant a tree', cost: 200, kind: 'donation', stock: null }, headers);
    await setReward({ id: 'sold-out', cost: 100, stock: 0 }, headers);
    await setReward({ id: 'retired', cost: 50, active: false }, headers);
    const list = await call('GET', '/rewards');
    expect(list.status).toBe(200);
    expect(list.body.rewards.map((r: { id: string }) => r.id)).toEqual(['sold-out', 'tree', 'coffee']);
    expect(list.body.rewards[0]).toMatchObject({ available: false, stock: 0 });
    expect(list.body.rewards[1]).toMatchObject({ available: true, stock: null, kind: 'donation' });
  });

  test.each([
    [{ cost: 0 }, 'cost must be >= 1'],
    [{ cost: 1_000_001 }, 'cost must be <= 1000000'],
    [{ cost: 2.5 }, 'cost must be integer'],
    [{ kind: 'gift' }, 'kind must be one of voucher, donation'],
    [{ stock: -1 }, 'stock must be >= 0'],
  ])('%j: 400 naming the field', async (fields, message) => {
    const res = await setReward(fields as RewardFields);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
  });

  test('null for description or active means not given; null stock means unlimited', async () => {
    await setReward({ id: 'coffee', description: 'At the station café', stock: 3 });
    const res = await call('POST', '/admin/rewards', {
      body: { id: 'coffee', name: 'Coffee', cost: 300, kind: 'voucher', description: null, active: null, stock: null },
      headers: await adminHeaders(),
    });
    expect(res.status).toBe(200);
    expect(res.body.reward).toMatchObject({ description: 'At the station café', active: true, stock: null });
  });

  test('a reward broken by hand: left out of the list, never spent on, mended by an update that gives the field', async () => {
    const userId = await userWith(1000);
    await setReward({ id: 'coffee', cost: 300, stock: 5 });
    await db().collection('rewards').doc('coffee').update({ stock: -3 });

    expect((await call('GET', '/rewards')).body.rewards).toEqual([]);
    const spent = await redeem(userId, 'coffee', 'b-1', await bearerFor(userId));
    expect(spent.status).toBe(500);
    expect(spent.body.code).toBe('internal');
    expect(await userDoc(userId)).toMatchObject({ currentPoints: 1000 });
    expect((await db().collection('redemptions').where('userId', '==', userId).get()).size).toBe(0);

    const unmended = await setReward({ id: 'coffee', cost: 300, stock: undefined });
    expect(unmended.status).toBe(400);
    expect(unmended.body.error).toMatch(/stock$/);
    const mended = await setReward({ id: 'coffee', cost: 300, stock: 4 });
    expect(mended.status).toBe(200);
    expect((await redeem(userId, 'coffee', 'b-2', await bearerFor(userId))).status).toBe(201);
  });

  test('only admins set rewards: 403 for a user', async () => {
    const res = await setReward({}, await bearerFor('plain-user'));
    expect(res.status).toBe(403);
  });
});

describe('POST /user/{id}/redemptions', () => {
  test('spends currentPoints only, takes one unit of stock, writes the ledger entry; the history and the list show it', async () => {
    const userId = await userWith(1000);
    const headers = await bearerFor(userId);
    const { body: created } = await setReward({ id: 'coffee', name: 'Coffee', cost: 300, stock: 5 });
    const res = await redeem(userId, 'coffee', 'r-1', headers);
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const { redemption } = res.body;
    expect(res.body).toEqual({
      success: true,
      redemption: {
        id: redemption.id,
        rewardId: 'coffee',
        rewardName: 'Coffee',
        kind: 'voucher',
        cost: 300,
        code: expect.stringMatching(CODE),
        status: 'issued',
        createdAt: expect.any(String),
        expiresAt: new Date(Date.parse(redemption.createdAt) + 90 * 24 * 60 * 60_000).toISOString(),
        usedAt: null,
      },
      newBalance: 700,
    });
    expect(created.reward.stock).toBe(5);
    expect(await stockOf('coffee')).toBe(4);
    expect(await userDoc(userId)).toMatchObject({ currentPoints: 700, totalPoints: 1000, rank: 'Silver' });
    const entry = (await db().collection('ledger').doc(`redeem-${redemption.id}`).get()).data();
    expect(entry).toMatchObject({
      userId,
      kind: 'redeem',
      points: -300,
      balanceAfter: 700,
      redemption: { id: redemption.id, rewardId: 'coffee', rewardName: 'Coffee' },
    });

    const history = await call('GET', `/user/${userId}/history?limit=1`, { headers });
    expect(history.body.entries[0]).toEqual({
      id: `redeem-${redemption.id}`,
      kind: 'redeem',
      points: -300,
      balanceAfter: 700,
      createdAt: redemption.createdAt,
      redemption: { id: redemption.id, rewardId: 'coffee', rewardName: 'Coffee' },
    });
    const list = await call('GET', `/user/${userId}/redemptions`, { headers });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ success: true, redemptions: [redemption], nextCursor: null });
  });

  test('a donation has no code; the notification and the push follow, once', async () => {
    const userId = await userWith(500, 'phone-redeem');
    await setReward({ id: 'tree', name: 'Plant a tree', kind: 'donation', cost: 200, stock: null });
    const res = await redeem(userId, 'tree', 'd-1', await adminHeaders());
    expect(res.status).toBe(201);
    expect(res.body.redemption).toMatchObject({ kind: 'donation', code: null });
    expect(await stockOf('tree')).toBeNull();
    const id = res.body.redemption.id;
    const redemptionDoc = db().collection('redemptions').doc(id);
    const effects = await waitFor(
      `the effects of redemption ${id}`,
      async () => (await redemptionDoc.get()).get('effects.completedAt') && true,
      30_000,
      async () => `its effects: ${JSON.stringify((await redemptionDoc.get()).get('effects') ?? null)}`,
    );
    expect(effects).toBe(true);
    const notification = (await db().collection(`users/${userId}/notifications`).doc(id).get()).data();
    expect(notification).toMatchObject({
      type: 'redemption',
      read: false,
      data: { type: 'redemption', redemptionId: id },
    });
    const outbox = await db().collection('pushOutbox').get();
    expect(outbox.docs.map((doc) => doc.get('message'))).toEqual([
      expect.objectContaining({ token: 'phone-redeem', data: expect.objectContaining({ redemptionId: id }) }),
    ]);
  });

  test('the same key again: the same body, 200 and Idempotent-Replayed; with another body: 422; nothing spent twice', async () => {
    const userId = await userWith(1000);
    const headers = await bearerFor(userId);
    await setReward({ id: 'coffee', cost: 300 });
    await setReward({ id: 'tea', cost: 100 });
    const first = await redeem(userId, 'coffee', 'k-1', headers);
    const again = await redeem(userId, 'coffee', 'k-1', headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await redeem(userId, 'tea', 'k-1', headers);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency-key-reused');
    expect((await userDoc(userId)).currentPoints).toBe(700);
    // Keys belong to the user: another user's k-1 is a redemption of its own.
    const other = await userWith(300);
    expect((await redeem(other, 'coffee', 'k-1', await adminHeaders())).status).toBe(201);
  });

  test('refused: no key 400; unknown reward or user 404; inactive, out of stock, too few points 409', async () => {
    const userId = await userWith(250);
    const headers = await bearerFor(userId);
    await setReward({ id: 'coffee', cost: 300 });
    await setReward({ id: 'gone', cost: 10, active: false });
    await setReward({ id: 'empty', cost: 10, stock: 0 });

    const noKey = await redeem(userId, 'coffee', undefined, headers);
    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual({
      error: 'Idempotency-Key is required: a redemption must be safe to retry',
      code: 'invalid-argument',
    });
    expect((await redeem(userId, 'nothing', 'a', headers)).body).toEqual({
      error: 'Reward nothing not found',
      code: 'not-found',
    });
    const noUser = await redeem('nobody', 'coffee', 'a', await adminHeaders());
    expect([noUser.status, noUser.body.code]).toEqual([404, 'not-found']);
    const codes = await Promise.all(
      ['gone', 'empty', 'coffee'].map(async (rewardId, i) => {
        const res = await redeem(userId, rewardId, `x-${i}`, headers);
        return [res.status, res.body.code];
      }),
    );
    expect(codes).toEqual([
      [409, 'reward-inactive'],
      [409, 'out-of-stock'],
      [409, 'insufficient-points'],
    ]);
    expect((await userDoc(userId)).currentPoints).toBe(250);
    expect((await db().collection('redemptions').get()).size).toBe(0);
    expect(await stockOf('coffee')).toBe(5);
    const forbidden = await redeem(userId, 'coffee', 'y', await bearerFor('someone-else'));
    expect(forbidden.status).toBe(403);
  });
});

describe('under concurrency', () => {
  test('20 users at once against a stock of 3: exactly 3 issued, the stock 0, the rest out-of-stock', async () => {
    await setReward({ id: 'scarce', cost: 100, stock: 3 });
    // One after the other: opening balances read a user's entries in a transaction, which locks them.
    const users: string[] = [];
    for (let i = 0; i < 20; i++) users.push(await userWith(100));
    const headers = await adminHeaders();
    const answers = await Promise.all(users.map((userId) => redeem(userId, 'scarce', 'once', headers)));
    const statuses = answers.map((res) => (res.status === 201 ? 201 : `${res.status} ${res.body.code}`));
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === '409 out-of-stock')).toHaveLength(17);
    expect(await stockOf('scarce')).toBe(0);
    expect((await db().collection('redemptions').get()).size).toBe(3);
  });

  test('10 keys at once against a balance enough for 2: exactly 2, the balance never below 0', async () => {
    const userId = await userWith(900);
    await setReward({ id: 'big', cost: 400, stock: null });
    const headers = await bearerFor(userId);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => redeem(userId, 'big', `k-${i}`, headers)));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(2);
    expect(answers.filter((res) => res.body.code === 'insufficient-points')).toHaveLength(8);
    expect((await userDoc(userId)).currentPoints).toBe(100);
  });

  test('one key sent 10 times at once: one spend, the others its replay', async () => {
    const userId = await userWith(1000);
    await setReward({ id: 'coffee', cost: 300, stock: 5 });
    const headers = await bearerFor(userId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => redeem(userId, 'coffee', 'tap', headers)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((res) => res.body.redemption.id)).size).toBe(1);
    expect(new Set(answers.map((res) => res.body.redemption.code)).size).toBe(1);
    expect((await userDoc(userId)).currentPoints).toBe(700);
    expect(await stockOf('coffee')).toBe(4);
    expect((await db().collection('ledger').where('kind', '==', 'redeem').get()).size).toBe(1);
  });
});

describe('POST /admin/redemptions/{id}/cancel', () => {
  test('refunds currentPoints and one unit of stock, once; the books hold after it all', async () => {
    const userId = await userWith(1000);
    await setReward({ id: 'coffee', name: 'Coffee', cost: 300, stock: 5 });
    const { body } = await redeem(userId, 'coffee', 'c-1', await bearerFor(userId));
    const id = body.redemption.id;
    const headers = await adminHeaders();
    const cancel = () => call('POST', `/admin/redemptions/${id}/cancel`, { body: { reason: 'café closed' }, headers });

    const res = await cancel();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      redemption: {
        ...body.redemption,
        status: 'cancelled',
        cancelledAt: expect.any(String),
        cancelReason: 'café closed',
      },
      newBalance: 1000,
    });
    expect(await userDoc(userId)).toMatchObject({ currentPoints: 1000, totalPoints: 1000 });
    expect(await stockOf('coffee')).toBe(5);
    const refund = (await db().collection('ledger').doc(`refund-${id}`).get()).data();
    expect(refund).toMatchObject({ kind: 'refund', points: 300, balanceAfter: 1000, reason: 'café closed' });

    const twice = await cancel();
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('already-cancelled');
    expect((await userDoc(userId)).currentPoints).toBe(1000);
    const unknown = await call('POST', '/admin/redemptions/nope/cancel', { body: { reason: 'x' }, headers });
    expect(unknown.status).toBe(404);
    const listed = await call('GET', `/user/${userId}/redemptions`, { headers });
    expect(listed.body.redemptions[0]).toEqual(res.body.redemption);

    expect(await admin('audit')).toMatch(/^audit: OK \(/);
  });

  test('gives a unit back only if the redemption took one; a blank reason is 400', async () => {
    const userId = await userWith(1000);
    const headers = await adminHeaders();
    await setReward({ id: 'tree', kind: 'donation', cost: 200, stock: null });
    const { body } = await redeem(userId, 'tree', 't-1', await bearerFor(userId));
    await setReward({ id: 'tree', kind: 'donation', cost: 200, stock: 5 });
    const cancel = (reason: string) =>
      call('POST', `/admin/redemptions/${body.redemption.id}/cancel`, { body: { reason }, headers });

    const blank = await cancel('   ');
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('invalid-argument');
    expect((await cancel('tree nursery closed')).status).toBe(200);
    expect(await stockOf('tree')).toBe(5);
    expect((await userDoc(userId)).currentPoints).toBe(1000);
  });
});

describe('GET /user/{id}/redemptions', () => {
  test('newest first, paged; bad limit or cursor 400', async () => {
    const userId = await userWith(1000);
    await setReward({ id: 'tea', cost: 10, stock: null });
    const headers = await bearerFor(userId);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await redeem(userId, 'tea', `t-${i}`, headers)).body.redemption.id);
    const first = await call('GET', `/user/${userId}/redemptions?limit=3`, { headers });
    const second = await call('GET', `/user/${userId}/redemptions?limit=3&cursor=${first.body.nextCursor}`, {
      headers,
    });
    expect([...first.body.redemptions, ...second.body.redemptions].map((r: { id: string }) => r.id)).toEqual(
      ids.reverse(),
    );
    expect(second.body.nextCursor).toBeNull();
    const bad = await call('GET', `/user/${userId}/redemptions?limit=0`, { headers });
    expect(bad.body).toEqual({ error: 'limit must be an integer from 1 to 100', code: 'invalid-argument' });
    const badCursor = await call('GET', `/user/${userId}/redemptions?cursor=nope`, { headers });
    expect(badCursor.status).toBe(400);
  });
});

describe('redemption trigger redelivered', () => {
  withoutBackgroundTriggers();

  test('the same event run twice: one notification, one push', async () => {
    const userId = await userWith(1000, 'phone-twice');
    await setReward({ id: 'coffee', cost: 300 });
    const { body } = await redeem(userId, 'coffee', 'once', await adminHeaders());
    const id = body.redemption.id;
    const deliver = await redemptionEvent(id, 'event-1');
    await deliver();
    const afterFirst = (await db().collection('redemptions').doc(id).get()).get('effects');
    await deliver();
    const afterSecond = (await db().collection('redemptions').doc(id).get()).get('effects');
    expect(afterSecond).toEqual(afterFirst);
    expect(afterFirst).toMatchObject({ notificationId: id, push: { status: 'sent' } });
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(1);
    const outbox = await db().collection('pushOutbox').get();
    expect(outbox.docs.map((doc) => doc.get('message.data'))).toEqual([
      { type: 'redemption', redemptionId: id, cost: '300', newBalance: '700' },
    ]);
  });

  test('cancelled before its trigger ran: never announced, and nothing left pending', async () => {
    const userId = await userWith(1000, 'phone-cancelled');
    const headers = await adminHeaders();
    await setReward({ id: 'coffee', cost: 300 }, headers);
    const id = (await redeem(userId, 'coffee', 'cancelled-first', headers)).body.redemption.id;
    const cancelled = await call('POST', `/admin/redemptions/${id}/cancel`, { body: { reason: 'typo' }, headers });
    expect(cancelled.status).toBe(200);
    const deliver = await redemptionEvent(id, 'event-late');
    await deliver();
    await deliver();

    const after = (await db().collection('redemptions').doc(id).get()).data()!;
    expect({
      notifications: (await db().collection(`users/${userId}/notifications`).get()).size,
      pushes: (await db().collection('pushOutbox').get()).size,
      effects: after.effects,
      pending: after.effectsPending,
    }).toEqual({
      notifications: 0,
      pushes: 0,
      effects: { untold: 'cancelled', completedAt: expect.anything() },
      pending: undefined,
    });
  });
});

describe('operator CLI: catalog, catalog:set, redemption:cancel', () => {
  /** catalog:set of the 800-point voucher "mug", with these further flags. */
  const setMug = (...flags: string[]) =>
    admin('catalog:set', '--id', 'mug', '--name', 'Mug', '--cost', '800', '--kind', 'voucher', ...flags);

  test('sets and lists rewards, cancels a redemption once', async () => {
    const set = JSON.parse(await setMug('--stock', '2'));
    expect(set).toEqual({
      id: 'mug',
      name: 'Mug',
      description: '',
      cost: 800,
      kind: 'voucher',
      available: true,
      stock: 2,
      active: true,
      partnerId: null,
      validDays: 90,
    });
    await setMug('--stock', 'unlimited', '--active', 'false');
    expect(JSON.parse(await admin('catalog', '--json'))).toEqual([
      {
        id: 'mug',
        name: 'Mug',
        description: '',
        cost: 800,
        kind: 'voucher',
        stock: null,
        active: false,
        partnerId: null,
        validDays: 90,
      },
    ]);
    const refused = await cli('catalog:set', '--id', 'x', '--name', 'X', '--cost', '0', '--kind', 'voucher');
    expect([refused.code, refused.stderr]).toEqual([1, 'error: cost must be >= 1\n']);

    await setMug('--active', 'true');
    const userId = await userWith(800);
    const { body } = await redeem(userId, 'mug', 'm-1', await adminHeaders());
    const cancelled = JSON.parse(await admin('redemption:cancel', '--id', body.redemption.id, '--reason', 'broken'));
    expect(cancelled).toMatchObject({ redemption: { status: 'cancelled', cancelReason: 'broken' }, newBalance: 800 });
    const again = await cli('redemption:cancel', '--id', body.redemption.id, '--reason', 'x');
    expect([again.code, again.stderr]).toEqual([1, `error: Redemption ${body.redemption.id} is already cancelled\n`]);
  });
});
