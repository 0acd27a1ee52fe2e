import { admin } from './cli-runner';
import { db, resetEmulators } from './helpers';
import { bearerFor, call } from './requests';
import { seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const adjust = (userId: string, body: unknown, headers: Record<string, string>, key?: string) =>
  call('POST', `/admin/users/${encodeURIComponent(userId)}/adjustments`, {
    body,
    headers: { ...headers, ...(key !== undefined && { 'idempotency-key': key }) },
  });
const signedInAdmin = async () => {
  const uid = uniqueId('admin');
  return { uid, headers: await bearerFor(uid, { admin: true }) };
};
const entriesOf = async (userId: string) =>
  (await db().collection('ledger').where('userId', '==', userId).get()).docs.map((doc) => ({
    id: doc.id,
    ...doc.data(),
  }));
const balancesOf = async (userId: string) => {
  const user = (await db().collection('users').doc(userId).get()).data()!;
  return { currentPoints: user.currentPoints, totalPoints: user.totalPoints, rank: user.rank };
};

describe('POST /admin/users/{id}/adjustments', () => {
  test('moves both balances, the rank follows up and down, the entry records reason and admin', async () => {
    const { uid, headers } = await signedInAdmin();
    const userId = await seedUser();
    const up = await adjust(userId, { points: 1200, reason: 'Welcome bonus' }, headers);
    expect(up.status).toBe(201);
    expect(up.headers.get('idempotent-replayed')).toBeNull();
    expect(up.body).toEqual({
      success: true,
      adjustment: { id: expect.any(String), points: 1200, reason: 'Welcome bonus', balanceAfter: 1200 },
      user: expect.objectContaining({ id: userId, currentPoints: 1200, totalPoints: 1200, rank: 'Silver' }),
    });
    // The answer's user is the user as GET /user/{id} shows it.
    const shown = await call('GET', `/user/${userId}`, { headers });
    expect(up.body.user).toEqual(shown.body.user);

    const down = await adjust(userId, { points: -300, reason: 'Deposit counted twice' }, headers);
    expect(down.status).toBe(201);
    expect(down.body.adjustment).toMatchObject({ points: -300, balanceAfter: 900 });
    expect(down.body.user).toMatchObject({ currentPoints: 900, totalPoints: 900, rank: 'Bronze' });
    expect(await balancesOf(userId)).toEqual({ currentPoints: 900, totalPoints: 900, rank: 'Bronze' });

    const entry = (await entriesOf(userId)).find((e) => e.id === down.body.adjustment.id);
    expect(entry).toMatchObject({
      userId,
      kind: 'adjust',
      points: -300,
      balanceAfter: 900,
      reason: 'Deposit counted twice',
      by: uid,
    });

    const history = await call('GET', `/user/${userId}/history`, { headers: await bearerFor(userId) });
    expect(history.body.entries).toEqual([
      {
        id: down.body.adjustment.id,
        kind: 'adjust',
        points: -300,
        balanceAfter: 900,
        reason: 'Deposit counted twice',
        createdAt: expect.any(String),
      },
      expect.objectContaining({ id: up.body.adjustment.id, kind: 'adjust', points: 1200, reason: 'Welcome bonus' }),
    ]);
    expect(await admin('audit')).toMatch(/^audit: OK \(\d+ users, 0 kiosks, 2 entries, 0 transactions\)\n$/);
  });

  test('below 0 is 409 insufficient-points and writes nothing, for either balance', async () => {
    const { headers } = await signedInAdmin();
    const userId = await seedUser();
    await adjust(userId, { points: 50, reason: 'Start' }, headers);
    // Spent elsewhere: 50 earned, 20 left to spend.
    await db().collection('users').doc(userId).update({ currentPoints: 20 });
    const before = await entriesOf(userId);

    const overdrawn = await adjust(userId, { points: -21, reason: 'Too much' }, headers);
    expect(overdrawn.status).toBe(409);
    expect(overdrawn.body).toEqual({ error: expect.stringContaining('below 0'), code: 'insufficient-points' });
    expect(await entriesOf(userId)).toEqual(before);
    expect(await balancesOf(userId)).toMatchObject({ currentPoints: 20, totalPoints: 50 });

    await db().collection('users').doc(userId).update({ currentPoints: 80 });
    const belowEarned = await adjust(userId, { points: -51, reason: 'Too much' }, headers);
    expect(belowEarned.status).toBe(409);
    expect(belowEarned.body.code).toBe('insufficient-points');
    expect(await balancesOf(userId)).toMatchObject({ currentPoints: 80, totalPoints: 50 });

    const toZero = await adjust(userId, { points: -50, reason: 'All of it' }, headers);
    expect(toZero.status).toBe(201);
    expect(toZero.body.user).toMatchObject({ currentPoints: 30, totalPoints: 0 });
  });

  test.each([
    [{ points: 0, reason: 'r' }, 'points must not be 0'],
    [{ points: 100_001, reason: 'r' }, 'points must be <= 100000'],
    [{ points: -100_001, reason: 'r' }, 'points must be >= -100000'],
    [{ points: 2.5, reason: 'r' }, 'points must be integer'],
    [{ points: '10', reason: 'r' }, 'points must be integer'],
    [{ points: 10, reason: '' }, 'reason must NOT have fewer than 1 characters'],
    [{ points: 10, reason: 'r'.repeat(201) }, 'reason must NOT have more than 200 characters'],
    [{ points: 10, reason: '   ' }, 'reason must contain a character other than white space'],
    [{ points: 10 }, 'reason is required'],
    [{ points: 10, reason: 'r', by: 'me' }, 'by is not a known field'],
  ])('%j: 400 %s, nothing written', async (body, message) => {
    const { headers } = await signedInAdmin();
    const userId = await seedUser();
    const res = await adjust(userId, body, headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
    expect(await entriesOf(userId)).toEqual([]);
  });

  test('±100,000 and a 200-character reason are accepted', async () => {
    const { headers } = await signedInAdmin();
    const userId = await seedUser();
    expect((await adjust(userId, { points: 100_000, reason: 'r'.repeat(200) }, headers)).status).toBe(201);
    expect((await adjust(userId, { points: -100_000, reason: 'back' }, headers)).status).toBe(201);
  });

  test('a user (even the one adjusted) is 403, no token 401, an unknown user 404', async () => {
    const userId = await seedUser();
    const self = await adjust(userId, { points: 10, reason: 'for me' }, await bearerFor(userId));
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('permission-denied');
    expect((await adjust(userId, { points: 10, reason: 'x' }, {})).status).toBe(401);
    const { headers } = await signedInAdmin();
    const unknown = await adjust('nobody-here', { points: 10, reason: 'x' }, headers);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'User nobody-here not found', code: 'not-found' });
    expect(await entriesOf(userId)).toEqual([]);
    expect(await entriesOf('nobody-here')).toEqual([]);
  });

  test('Idempotency-Key: a replay is answered with the stored adjustment, applied once; another body is 422', async () => {
    const { headers } = await signedInAdmin();
    const userId = await seedUser();
    const other = await seedUser();
    const body = { points: 70, reason: 'Lost receipt 42' };
    const first = await adjust(userId, body, headers, 'ticket-42');
    expect(first.status).toBe(201);
    const again = await adjust(userId, body, (await signedInAdmin()).headers, 'ticket-42');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balancesOf(userId)).toMatchObject({ currentPoints: 70, totalPoints: 70 });

    const reused = await adjust(userId, { ...body, points: 71 }, headers, 'ticket-42');
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency-key-reused');
    const otherReason = await adjust(userId, { ...body, reason: 'Lost receipt 43' }, headers, 'ticket-42');
    expect(otherReason.status).toBe(422);

    // Keys are per user: the same key for another user is another adjustment.
    const forOther = await adjust(other, body, headers, 'ticket-42');
    expect(forOther.status).toBe(201);
    expect(forOther.body.adjustment.id).not.toBe(first.body.adjustment.id);
    expect(await entriesOf(userId)).toHaveLength(1);
    expect(await balancesOf(userId)).toMatchObject({ currentPoints: 70, totalPoints: 70 });
  });

  test('20 concurrent adjustments of -10 against 100: exactly 10 apply, never below 0, the books hold', async () => {
    const { headers } = await signedInAdmin();
    const userId = await seedUser();
    await adjust(userId, { points: 100, reason: 'Start' }, headers);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => adjust(userId, { points: -10, reason: `Take ${i}` }, headers)),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(10).fill(409)]);
    expect(results.filter((res) => res.status === 409).every((res) => res.body.code === 'insufficient-points')).toBe(
      true,
    );
    expect(await balancesOf(userId)).toMatchObject({ currentPoints: 0, totalPoints: 0 });
    const entries = await entriesOf(userId);
    expect(entries).toHaveLength(11);
    const balancesAfter = results.filter((res) => res.status === 201).map((res) => res.body.adjustment.balanceAfter);
    expect(balancesAfter.sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(await admin('audit')).toMatch(/^audit: OK \(\d+ users, 0 kiosks, 11 entries, 0 transactions\)\n$/);
  });
});
