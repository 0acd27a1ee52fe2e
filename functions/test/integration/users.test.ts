import { db, resetEmulators } from './helpers';
import { adminHeaders, bearerFor, call, nonAdminHeaders } from './requests';
import { seedUser } from './seeds';
import { pushTokenHolderRef } from '../../src/data/pushTokens';
import { registerPushToken } from '../../src/data/users';

beforeEach(resetEmulators);

describe('GET /user/{userId}', () => {
  test('the user reads their own profile: exactly the public fields, never the token', async () => {
    const userId = await seedUser({
      name: 'Ada',
      currentPoints: 40,
      totalPoints: 1200,
      pushToken: 'secret-device-token',
    });
    const res = await call('GET', `/user/${userId}`, { headers: await bearerFor(userId) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      user: {
        id: userId,
        name: 'Ada',
        currentPoints: 40,
        totalPoints: 1200,
        recycledCount: 0,
        rank: 'Silver',
        hasPushToken: true,
        expiringPoints: null,
        heldPoints: 0,
        suspended: false,
      },
    });
    expect(res.text).not.toContain('secret-device-token');
  });

  test('an admin reads anyone', async () => {
    const userId = await seedUser();
    const res = await call('GET', `/user/${userId}`, { headers: await adminHeaders() });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(userId);
  });

  test("user A's token on user B: 403", async () => {
    const alice = await seedUser();
    const bob = await seedUser();
    const res = await call('GET', `/user/${bob}`, { headers: await bearerFor(alice) });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('You may only access your own user');
  });

  test.each([
    ['no Authorization header', {}],
    ['not a bearer token', { authorization: 'Basic abc' }],
    ['a garbage token', { authorization: 'Bearer not.a.jwt' }],
  ])('%s: 401', async (_name, headers) => {
    const userId = await seedUser();
    const res = await call('GET', `/user/${userId}`, { headers });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/ID token/);
  });

  test('unknown user: 404', async () => {
    const res = await call('GET', '/user/nobody-here', { headers: await adminHeaders() });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('User nobody-here not found');
  });
});

describe('rank', () => {
  const setRanks = (ranks: { name: string; minTotalPoints: number }[]) => db().doc('config/rewards').set({ ranks });

  test('every view derives it from totalPoints under the thresholds configured now', async () => {
    // 1,500 points made the user Silver at their last award, and the document says so.
    const userId = await seedUser({ totalPoints: 1500 });
    await db().collection('users').doc(userId).update({ rank: 'Silver' });
    const headers = await bearerFor(userId);
    expect((await call('GET', `/user/${userId}`, { headers })).body.user.rank).toBe('Silver');

    // The config is read on every view (no copy is kept in an instance), so the next request sees the change.
    await setRanks([
      { name: 'Bronze', minTotalPoints: 0 },
      { name: 'Silver', minTotalPoints: 2000 },
    ]);
    const view = await call('GET', `/user/${userId}`, { headers });
    expect(view.status).toBe(200);
    expect(view.body.user).toMatchObject({ totalPoints: 1500, rank: 'Bronze' });
    const put = await call('PUT', `/user/${userId}/push-token`, { headers, body: { token: 'rank-phone' } });
    expect(put.body.user.rank).toBe('Bronze');

    await setRanks([
      { name: 'Seedling', minTotalPoints: 0 },
      { name: 'Tree', minTotalPoints: 1200 },
    ]);
    const del = await call('DELETE', `/user/${userId}/push-token`, { headers });
    expect(del.body.user.rank).toBe('Tree');
    expect((await call('GET', `/user/${userId}`, { headers })).body.user.rank).toBe('Tree');
  });

  test('a broken config/rewards shows the default ranks, as awards use them', async () => {
    const userId = await seedUser({ totalPoints: 5000 });
    await setRanks([{ name: 'Only', minTotalPoints: 10 }]);
    const res = await call('GET', `/user/${userId}`, { headers: await bearerFor(userId) });
    expect(res.body.user.rank).toBe('Gold');
  });
});

describe('push token registration', () => {
  test('PUT stores the token; DELETE removes the field', async () => {
    const userId = await seedUser();
    const headers = await bearerFor(userId);
    const put = await call('PUT', `/user/${userId}/push-token`, { headers, body: { token: 'fcm-token-123' } });
    expect(put.status).toBe(200);
    expect(put.body.user.hasPushToken).toBe(true);
    expect((await db().collection('users').doc(userId).get()).get('pushToken')).toBe('fcm-token-123');

    const del = await call('DELETE', `/user/${userId}/push-token`, { headers });
    expect(del.status).toBe(200);
    expect(del.body.user.hasPushToken).toBe(false);
    const stored = await db().collection('users').doc(userId).get();
    expect(stored.get('pushToken')).toBeUndefined();
    expect(stored.get('pushTokenUpdatedAt')).toBeDefined();
  });

  test('a token moves to the account that registers it last', async () => {
    const first = await seedUser({ pushToken: 'shared-phone' });
    const second = await seedUser();
    const res = await call('PUT', `/user/${second}/push-token`, {
      headers: await bearerFor(second),
      body: { token: 'shared-phone' },
    });
    expect(res.status).toBe(200);
    expect((await db().collection('users').doc(first).get()).get('pushToken')).toBeUndefined();
    expect((await db().collection('users').doc(second).get()).get('pushToken')).toBe('shared-phone');
  });

  test('the holder of a token is one document, found by a point read: it follows every registration', async () => {
    const holderOf = async (token: string) => (await pushTokenHolderRef(token).get()).get('userId');
    const [first, second] = [await seedUser(), await seedUser()];
    const put = async (userId: string, token: string) =>
      (await call('PUT', `/user/${userId}/push-token`, { headers: await bearerFor(userId), body: { token } })).status;
    expect(await put(first, 'phone-a')).toBe(200);
    expect(await holderOf('phone-a')).toBe(first);
    // A new phone: the old token no longer names the user.
    expect(await put(first, 'phone-b')).toBe(200);
    expect(await holderOf('phone-a')).toBeUndefined();
    expect(await holderOf('phone-b')).toBe(first);
    // The phone changes hands, then the first user's later phone is never taken from them.
    expect(await put(second, 'phone-b')).toBe(200);
    expect(await holderOf('phone-b')).toBe(second);
    expect(await put(first, 'phone-c')).toBe(200);
    expect(await put(second, 'phone-d')).toBe(200);
    expect(await put(second, 'phone-b')).toBe(200);
    expect((await db().collection('users').doc(first).get()).get('pushToken')).toBe('phone-c');
    const del = await call('DELETE', `/user/${second}/push-token`, { headers: await bearerFor(second) });
    expect(del.status).toBe(200);
    expect(await holderOf('phone-b')).toBeUndefined();
    // No holder document keeps the token itself.
    const stored = await db().collection('pushTokens').get();
    expect(stored.docs.map((doc) => JSON.stringify(doc.data()))).not.toContainEqual(expect.stringContaining('phone-'));
  });

  test('16 users registering one token at once: each answered on its first send, exactly one holds it, and the holder document names them', async () => {
    const users = await Promise.all(Array.from({ length: 16 }, () => seedUser()));
    const headers = await Promise.all(users.map((userId) => bearerFor(userId)));
    // The emulator serves one request per worker process and starts them as requests come: 16 requests at once
    // first, so that 16 workers are ready and the registrations below arrive together, not as each one starts.
    await Promise.all(users.map((userId, index) => call('GET', `/user/${userId}`, { headers: headers[index] })));
    const answers = await Promise.all(
      users.map((userId, index) =>
        call('PUT', `/user/${userId}/push-token`, { headers: headers[index], body: { token: 'busy-phone' } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(users.map(() => 200));
    const holders = (await db().collection('users').where('pushToken', '==', 'busy-phone').get()).docs.map((d) => d.id);
    expect(holders).toHaveLength(1);
    expect((await pushTokenHolderRef('busy-phone').get()).get('userId')).toBe(holders[0]);
  });

  test('registrations of one token in one instance run in turn: none loses a race and reads the holder again', async () => {
    const users = await Promise.all(Array.from({ length: 16 }, () => seedUser()));
    const holderPath = pushTokenHolderRef('one-instance-phone').path;
    // Each attempt of a registration reads the holder document first: a registration that lost a race reads it again.
    const reads = jest.spyOn(db(), 'getAll');
    try {
      await Promise.all(users.map((userId) => registerPushToken(userId, 'one-instance-phone')));
      const holderReads = reads.mock.calls.filter((refs) =>
        refs.some((ref) => 'path' in ref && ref.path === holderPath),
      );
      expect(holderReads).toHaveLength(16);
    } finally {
      reads.mockRestore();
    }
    expect((await db().collection('users').where('pushToken', '==', 'one-instance-phone').get()).size).toBe(1);
  });

  test.each([
    [{}, 'token is required'],
    [{ token: '' }, 'token must NOT have fewer than 1 characters'],
  ])('bad body %p: 400', async (body, message) => {
    const userId = await seedUser();
    const res = await call('PUT', `/user/${userId}/push-token`, { headers: await bearerFor(userId), body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  test("another user's token: 403 on PUT and DELETE; no token: 401", async () => {
    const victim = await seedUser({ pushToken: 'victim-phone' });
    const attacker = await nonAdminHeaders();
    expect((await call('PUT', `/user/${victim}/push-token`, { headers: attacker, body: { token: 'x' } })).status).toBe(
      403,
    );
    expect((await call('DELETE', `/user/${victim}/push-token`, { headers: attacker })).status).toBe(403);
    expect((await call('DELETE', `/user/${victim}/push-token`)).status).toBe(401);
    expect((await db().collection('users').doc(victim).get()).get('pushToken')).toBe('victim-phone');
  });

  test('unknown user: 404', async () => {
    const res = await call('PUT', '/user/ghost/push-token', { headers: await adminHeaders(), body: { token: 't' } });
    expect(res.status).toBe(404);
  });
});
