import { Timestamp } from 'firebase-admin/firestore';
import { db, resetEmulators, waitForEffects, waitForKioskCount } from './helpers';
import { call } from './requests';
import { seedKiosk, seedKioskAndUser, seedKioskWithKey, seedUser } from './seeds';

beforeEach(resetEmulators);

const submit = (apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey, ...headers } });

describe('POST /kiosk/transaction', () => {
  test('awards points, records the transaction and applies the side effects', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey({ name: 'Central Station' });
    const userId = await seedUser({ currentPoints: 100, totalPoints: 990, pushToken: 'device-token-1' });

    const res = await submit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 2 });

    expect(res.status).toBe(200);
    const id = res.body.transaction.id;
    const awarded = {
      userId,
      kioskId,
      plasticCount: 3,
      metalCount: 2,
      totalItems: 5,
      pointsEarned: 70,
      capped: false,
      newBalance: 170,
      status: 'awarded',
      holdReasons: [],
    };
    expect(res.body).toEqual({
      success: true,
      transaction: {
        id,
        ...awarded,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        breakdown: [{ source: 'base', points: 70 }],
        status: 'awarded',
      },
      pushNotification: true,
    });
    const accepted = Date.parse(res.body.transaction.occurredAt);
    expect(Math.abs(Date.now() - accepted)).toBeLessThan(60_000);

    const user = (await db().collection('users').doc(userId).get()).data()!;
    expect(user).toMatchObject({ currentPoints: 170, totalPoints: 1060, recycledCount: 5, rank: 'Silver' });

    const transaction = await waitForEffects(id);
    expect(transaction).toMatchObject({
      ...awarded,
      balanceBefore: 100,
      idempotencyKey: null,
      effects: { kioskCounted: true, notificationId: id, push: { status: 'sent' } },
    });

    const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
    expect(kiosk).toMatchObject({ plasticCount: 3, metalCount: 2 });

    const notification = (await db().doc(`users/${userId}/notifications/${id}`).get()).data()!;
    expect(notification).toMatchObject({
      type: 'transaction',
      title: 'You earned 70 points',
      body: 'Thanks for recycling 5 items at Central Station. Your balance is now 170 points.',
      read: false,
      data: { type: 'transaction', transactionId: id, pointsEarned: '70', newBalance: '170', kioskId },
    });

    const outbox = await db().collection('pushOutbox').get();
    expect(outbox.size).toBe(1);
    expect(outbox.docs[0].get('message')).toEqual({
      token: 'device-token-1',
      notification: { title: 'You earned 70 points', body: notification.body },
      data: { type: 'transaction', transactionId: id, pointsEarned: '70', newBalance: '170', kioskId },
    });
    expect(transaction.effects.push.messageId).toContain(outbox.docs[0].id);
  });

  test('without a push token: pushNotification false, push skipped, notification still written', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(res.body.pushNotification).toBe(false);
    const transaction = await waitForEffects(res.body.transaction.id);
    expect(transaction.effects.push).toEqual({ status: 'skipped' });
    expect((await db().doc(`users/${userId}/notifications/${res.body.transaction.id}`).get()).exists).toBe(true);
    expect((await db().collection('pushOutbox').get()).size).toBe(0);
  });

  test.each([
    ['reports unregistered', 'unregistered-old-phone'],
    ['calls malformed (invalid-argument)', 'invalid-garbled-token'],
  ])('a token the push provider %s is removed; the award stays', async (_answer, pushToken) => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser({ pushToken });
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(res.status).toBe(200);
    const transaction = await waitForEffects(res.body.transaction.id);
    expect(transaction.effects.push).toEqual({ status: 'failed', error: 'unregistered' });
    const user = (await db().collection('users').doc(userId).get()).data()!;
    expect(user.pushToken).toBeUndefined();
    expect(user.currentPoints).toBe(10);
  });

  test('a transient push failure is recorded and does not fail the award', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser({ pushToken: 'unavailable-flaky' });
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 0, metalCount: 1 });
    const transaction = await waitForEffects(res.body.transaction.id);
    expect(transaction.effects.push).toEqual({ status: 'failed', error: 'unavailable' });
    expect((await db().collection('users').doc(userId).get()).get('pushToken')).toBe('unavailable-flaky');
    expect(transaction.effects.kioskCounted).toBe(true);
  });

  test('operators change points and ranks without a code change (config/rewards)', async () => {
    await db()
      .doc('config/rewards')
      .set({
        pointsPerPlastic: 1,
        pointsPerMetal: 2,
        ranks: [
          { name: 'Seedling', minTotalPoints: 0 },
          { name: 'Tree', minTotalPoints: 5 },
        ],
      });
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 2 });
    expect(res.body.transaction.pointsEarned).toBe(5);
    expect((await db().collection('users').doc(userId).get()).get('rank')).toBe('Tree');
  });

  test('a malformed field of config/rewards falls back alone: a typo in ranks keeps the daily cap', async () => {
    await db()
      .doc('config/rewards')
      .set({ dailyPointsCap: 100, pointsPerPlastic: 1, ranks: [{ nmae: 'Seedling', minTotalPoints: 0 }] });
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const plastic = await submit(apiKey, { kioskId, userId, plasticCount: 50, metalCount: 0 });
    expect(plastic.body.transaction).toMatchObject({ pointsEarned: 50, capped: false });
    // 10 metal at the default 20 points would be 200: the configured cap of 100 still holds.
    const metal = await submit(apiKey, { kioskId, userId, plasticCount: 0, metalCount: 10 });
    expect(metal.body.transaction).toMatchObject({ pointsEarned: 50, capped: true, newBalance: 100 });
    // The default ranks apply: 100 points is Bronze.
    expect((await db().collection('users').doc(userId).get()).get('rank')).toBe('Bronze');
  });

  describe('bad input: 400 naming the field, nothing written', () => {
    test.each([
      [{ userId: 'u', plasticCount: 1, metalCount: 1 }, 'kioskId is required'],
      [{ kioskId: 'K', plasticCount: 1, metalCount: 1 }, 'userId is required'],
      [{ kioskId: 'K', userId: 'u', metalCount: 1 }, 'plasticCount is required'],
      [{ kioskId: 'K', userId: 'u', plasticCount: 1 }, 'metalCount is required'],
      [{ kioskId: 'K', userId: 'u', plasticCount: -1, metalCount: 1 }, 'plasticCount must be >= 0'],
      [{ kioskId: 'K', userId: 'u', plasticCount: 1001, metalCount: 1 }, 'plasticCount must be <= 1000'],
      [{ kioskId: 'K', userId: 'u', plasticCount: 1.5, metalCount: 1 }, 'plasticCount must be integer'],
      [{ kioskId: 'K', userId: 'u', plasticCount: '1', metalCount: 1 }, 'plasticCount must be integer'],
      [
        { kioskId: 'K', userId: 'u', plasticCount: 0, metalCount: 0 },
        'plasticCount and metalCount: a transaction needs at least one item',
      ],
      [{ kioskId: 'K', userId: '__u__', plasticCount: 1, metalCount: 0 }, 'userId must be 1-128 characters'],
      [{ kioskId: 'K', userId: 'u', plasticCount: 1, metalCount: 0, bonus: 5 }, 'bonus is not a known field'],
    ])('%p', async (body, message) => {
      const { kioskId, apiKey } = await seedKioskWithKey({ id: 'K' });
      const res = await submit(apiKey, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
      expect(kioskId).toBe('K');
      expect((await db().collection('transactions').get()).size).toBe(0);
    });

    test.each([[''], ['k'.repeat(256)], ['café-1'], ['receipt 1']])('Idempotency-Key %p: 400', async (key) => {
      const { kioskId, apiKey } = await seedKioskWithKey();
      const userId = await seedUser();
      const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 }, { 'idempotency-key': key });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Idempotency-Key must be 1-255 visible ASCII characters (0x21-0x7E)');
      expect((await db().collection('transactions').get()).size).toBe(0);
    });

    test('occurredAt: null is 400 naming occurredAt', async () => {
      const { kioskId, apiKey } = await seedKioskWithKey();
      const userId = await seedUser();
      const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0, occurredAt: null });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('occurredAt must be string');
      expect((await db().collection('transactions').get()).size).toBe(0);
    });
  });

  test('missing or wrong key: 401', async () => {
    const kioskId = await seedKiosk();
    const userId = await seedUser();
    const body = { kioskId, userId, plasticCount: 1, metalCount: 0 };
    expect((await call('POST', '/kiosk/transaction', { body })).status).toBe(401);
    expect((await submit('kr_wrong', body)).status).toBe(401);
  });

  test("another kiosk's key: 403, nothing awarded", async () => {
    const { apiKey } = await seedKioskWithKey();
    const other = await seedKiosk();
    const userId = await seedUser();
    const res = await submit(apiKey, { kioskId: other, userId, plasticCount: 1, metalCount: 0 });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(`This API key is not valid for kiosk ${other}`);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(0);
  });

  test('unknown user: 404 saying so', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const res = await submit(apiKey, { kioskId, userId: 'nobody', plasticCount: 1, metalCount: 0 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('User nobody not found');
  });

  test('unknown kiosk: 404 saying so', async () => {
    const { issueKey } = await import('../../src/data/kioskKeys');
    const { apiKey } = await issueKey('gone', 'kiosk removed');
    const userId = await seedUser();
    const res = await submit(apiKey, { kioskId: 'gone', userId, plasticCount: 1, metalCount: 0 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Kiosk gone not found');
  });

  test.each([['maintenance'], ['offline']] as const)('kiosk in %s: 409, nothing awarded', async (status) => {
    const { kioskId, apiKey } = await seedKioskWithKey({ status });
    const userId = await seedUser();
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Kiosk ${kioskId} is ${status} and cannot accept transactions`);
    expect((await db().collection('transactions').get()).size).toBe(0);
  });
});

describe('daily earning cap', () => {
  /** A daily cap of 100 points, a kiosk with its key, and a user who has earned nothing yet. */
  const underCapOf100 = async () => {
    await db().doc('config/rewards').set({ dailyPointsCap: 100 });
    return seedKioskAndUser();
  };

  test('a deposit past the cap is recorded for the points left, capped; later ones for 0; none refused', async () => {
    const { kioskId, apiKey, userId } = await underCapOf100();
    const under = await submit(apiKey, { kioskId, userId, plasticCount: 8, metalCount: 0 });
    expect(under.body.transaction).toMatchObject({ pointsEarned: 80, capped: false });
    const past = await submit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 0 });
    expect(past.status).toBe(200);
    expect(past.body.transaction).toMatchObject({ pointsEarned: 20, capped: true, totalItems: 3, newBalance: 100 });
    const full = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 2 });
    expect(full.body.transaction).toMatchObject({ pointsEarned: 0, capped: true, totalItems: 3, newBalance: 100 });

    const user = (await db().collection('users').doc(userId).get()).data()!;
    expect(user).toMatchObject({ currentPoints: 100, totalPoints: 100, recycledCount: 14 });
    expect(user.earnedByDay).toEqual({ [new Date().toISOString().slice(0, 10)]: 100 });
    expect((await db().collection('transactions').get()).size).toBe(3);
    await waitForEffects(full.body.transaction.id);
    const kiosk = await waitForKioskCount(kioskId, 14);
    expect(kiosk).toMatchObject({ plasticCount: 12, metalCount: 2 });
  });

  test('landing exactly on the cap is not capped', async () => {
    const { kioskId, apiKey, userId } = await underCapOf100();
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(res.body.transaction).toMatchObject({ pointsEarned: 100, capped: false });
  });

  test('the cap counts by the UTC day of occurredAt: a backlog of days is not squeezed into today', async () => {
    const { kioskId, apiKey, userId } = await underCapOf100();
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const results = [];
    for (const days of [3, 3, 2, 0]) {
      results.push(
        (await submit(apiKey, { kioskId, userId, plasticCount: 7, metalCount: 0, occurredAt: daysAgo(days) })).body,
      );
    }
    expect(results.map((body) => [body.transaction.pointsEarned, body.transaction.capped])).toEqual([
      [70, false],
      [30, true],
      [70, false],
      [70, false],
    ]);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(240);
  });
});

describe('occurredAt', () => {
  test('stored as sent, returned in UTC', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const sent = new Date(Date.now() - 2 * 86_400_000);
    sent.setUTCMilliseconds(0);
    const withOffset = `${sent
      .toISOString()
      .slice(0, 19)
      .replace(/T(\d\d)/, (_, h) => `T${String((Number(h) + 2) % 24).padStart(2, '0')}`)}+02:00`;
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0, occurredAt: withOffset });
    expect(res.status).toBe(200);
    const expected = new Date(Date.parse(withOffset)).toISOString();
    expect(res.body.transaction.occurredAt).toBe(expected);
    const stored = (await db().collection('transactions').doc(res.body.transaction.id).get()).get('occurredAt');
    expect(stored.toDate().toISOString()).toBe(expected);
  });

  test.each([
    ['8 days back', -8 * 86_400_000, 'occurredAt must not be more than 7 days in the past'],
    ['10 minutes ahead', 10 * 60_000, 'occurredAt must not be more than 5 minutes in the future'],
  ])('%s: 400 naming occurredAt, nothing written', async (_, offset, message) => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const occurredAt = new Date(Date.now() + offset).toISOString();
    const res = await submit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0, occurredAt });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
    expect((await db().collection('transactions').get()).size).toBe(0);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(0);
  });

  test('without an offset: 400 naming occurredAt', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const res = await submit(apiKey, {
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 0,
      occurredAt: '2026-11-23T10:00:00',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^occurredAt must be an RFC 3339 date-time with an offset/);
  });
});

describe('Idempotency-Key', () => {
  test('a repeat returns the stored response and awards nothing more', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const body = { kioskId, userId, plasticCount: 2, metalCount: 0 };
    const first = await submit(apiKey, body, { 'idempotency-key': 'receipt-0001' });
    const second = await submit(
      apiKey,
      { metalCount: 0, plasticCount: 2, userId, kioskId },
      { 'idempotency-key': 'receipt-0001' },
    );
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(20);
    const transactions = await db().collection('transactions').get();
    expect(transactions.size).toBe(1);
    expect(transactions.docs[0].get('idempotencyKey')).toBe('receipt-0001');
  });

  test('the same key with another body: 422', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    await submit(apiKey, { kioskId, userId, plasticCount: 2, metalCount: 0 }, { 'idempotency-key': 'receipt-0002' });
    const res = await submit(
      apiKey,
      { kioskId, userId, plasticCount: 3, metalCount: 0 },
      { 'idempotency-key': 'receipt-0002' },
    );
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('This Idempotency-Key was already used with a different request body');
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(20);
  });

  test('keys are per kiosk: the same key from two kiosks is two transactions', async () => {
    const a = await seedKioskWithKey();
    const b = await seedKioskWithKey();
    const userId = await seedUser();
    await submit(
      a.apiKey,
      { kioskId: a.kioskId, userId, plasticCount: 1, metalCount: 0 },
      { 'idempotency-key': 'shared' },
    );
    await submit(
      b.apiKey,
      { kioskId: b.kioskId, userId, plasticCount: 1, metalCount: 0 },
      { 'idempotency-key': 'shared' },
    );
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(20);
  });

  test('a failed request is not stored: after the kiosk is back, the same key awards', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey({ status: 'maintenance' });
    const userId = await seedUser();
    const body = { kioskId, userId, plasticCount: 1, metalCount: 0 };
    expect((await submit(apiKey, body, { 'idempotency-key': 'retry-me' })).status).toBe(409);
    await db().collection('kiosks').doc(kioskId).update({ status: 'available' });
    expect((await submit(apiKey, body, { 'idempotency-key': 'retry-me' })).status).toBe(200);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(10);
  });

  test('the same key sent concurrently awards once, and every duplicate gets the same answer', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const body = { kioskId, userId, plasticCount: 1, metalCount: 1 };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => submit(apiKey, body, { 'idempotency-key': 'burst-1' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((r) => r.body.transaction.id)).size).toBe(1);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(30);
    expect((await db().collection('transactions').get()).size).toBe(1);
  });
});

describe('Idempotency-Key, exactly once forever', () => {
  test('a retry long after the old 24-hour window is still a replay', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const body = { kioskId, userId, plasticCount: 1, metalCount: 0 };
    const first = await submit(apiKey, body, { 'idempotency-key': 'receipt-old' });
    // Age the stored transaction as a month would: nothing about it may expire.
    const monthAgo = Timestamp.fromMillis(Date.now() - 30 * 86_400_000);
    await db().collection('transactions').doc(first.body.transaction.id).update({ createdAt: monthAgo });
    const late = await submit(apiKey, body, { 'idempotency-key': 'receipt-old' });
    expect(late.status).toBe(200);
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect(late.body).toEqual(first.body);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(10);
  });

  test('the transaction id is derived from kiosk and key, so ids containing ":" never collide', async () => {
    const a = await seedKioskWithKey({ id: 'site:a' });
    const b = await seedKioskWithKey({ id: 'site' });
    const userId = await seedUser();
    const first = await submit(
      a.apiKey,
      { kioskId: 'site:a', userId, plasticCount: 1, metalCount: 0 },
      { 'idempotency-key': 'b' },
    );
    const second = await submit(
      b.apiKey,
      { kioskId: 'site', userId, plasticCount: 1, metalCount: 0 },
      { 'idempotency-key': 'a:b' },
    );
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.transaction.id).not.toBe(second.body.transaction.id);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(20);
  });

  test('one key reused concurrently with different bodies: one award, every other answer a replay or 422', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        submit(
          apiKey,
          { kioskId, userId, plasticCount: 1 + (i % 2), metalCount: 0 },
          { 'idempotency-key': 'contested' },
        ),
      ),
    );
    const awarded = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    expect(awarded).toHaveLength(1);
    const winner = awarded[0].body.transaction;
    for (const r of responses) {
      if (r.status === 200) expect(r.body.transaction).toEqual(winner);
      else expect(r.status).toBe(422);
    }
    expect(responses.filter((r) => r.status === 422)).toHaveLength(5);
    expect((await db().collection('users').doc(userId).get()).get('currentPoints')).toBe(winner.pointsEarned);
    expect((await db().collection('transactions').get()).size).toBe(1);
  });
});

describe('concurrency', () => {
  test('50 concurrent awards to one user end in exactly the right balance', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        submit(apiKey, { kioskId, userId, plasticCount: 1 + (i % 3), metalCount: i % 2 }),
      ),
    );
    expect(responses.filter((r) => r.status !== 200).map((r) => r.text)).toEqual([]);
    const expectedPoints = responses.reduce((sum, r) => sum + r.body.transaction.pointsEarned, 0);
    const expectedItems = responses.reduce((sum, r) => sum + r.body.transaction.totalItems, 0);
    const user = (await db().collection('users').doc(userId).get()).data()!;
    expect(user.currentPoints).toBe(expectedPoints);
    expect(user.totalPoints).toBe(expectedPoints);
    expect(user.recycledCount).toBe(expectedItems);
    expect(new Set(responses.map((r) => r.body.transaction.newBalance)).size).toBe(50);
    const transactions = await db().collection('transactions').get();
    expect(transactions.size).toBe(50);

    // The Firestore emulator delivers trigger events one at a time (measured: a trigger
    // held 15 s on a lock holds back every other trigger for 15 s), so this waits for
    // the whole queue, generously.
    const kiosk = await waitForKioskCount(kioskId, expectedItems, 150_000);
    const counted = kiosk.plasticCount + kiosk.metalCount;
    expect(counted).toBe(expectedItems);
  }, 240_000);
});
