import { auditBooks } from '../../src/services/audit';
import { awardTransactions } from '../../src/services/deposits';
import { db, resetEmulators, waitForKioskCount } from './helpers';
import { call } from './requests';
import { seedKiosk, seedKioskAndUser, seedKioskWithKey, seedUser } from './seeds';

beforeEach(resetEmulators);

const upload = (apiKey: string, body: unknown) =>
  call('POST', '/kiosk/transactions/batch', { body, headers: { 'x-api-key': apiKey } });
const single = (apiKey: string, body: Record<string, unknown>, key: string) =>
  call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey, 'idempotency-key': key } });
const pointsOf = async (userId: string) => (await db().collection('users').doc(userId).get()).get('currentPoints');
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

describe('POST /kiosk/transactions/batch', () => {
  test('each item is answered as POST /kiosk/transaction would answer it alone, in order', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const other = await seedKiosk();
    const userId = await seedUser();
    const item = (key: string, fields: Record<string, unknown> = {}) => ({
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 1,
      occurredAt: hoursAgo(30),
      idempotencyKey: key,
      ...fields,
    });
    const items = [
      item('ok-1'),
      item('bad-count', { plasticCount: 1001 }),
      item('other-kiosk', { kioskId: other }),
      item('no-user', { userId: 'nobody' }),
      item('too-old', { occurredAt: hoursAgo(24 * 8) }),
      { kioskId, userId, plasticCount: 1, metalCount: 0 },
      item('ok-2', { plasticCount: 2, metalCount: 0 }),
    ];
    const res = await upload(apiKey, { transactions: items });
    expect(res.status).toBe(200);
    const { results } = res.body;
    expect(results.map((r: { idempotencyKey: string | null; status: number }) => [r.idempotencyKey, r.status])).toEqual(
      [
        ['ok-1', 200],
        ['bad-count', 400],
        ['other-kiosk', 403],
        ['no-user', 404],
        ['too-old', 400],
        [null, 400],
        ['ok-2', 200],
      ],
    );
    expect(results[1]).toMatchObject({ error: 'plasticCount must be <= 1000', code: 'invalid-argument' });
    expect(results[2]).toMatchObject({
      error: `This API key is not valid for kiosk ${other}`,
      code: 'permission-denied',
    });
    expect(results[3]).toMatchObject({ error: 'User nobody not found', code: 'not-found' });
    expect(results[4].error).toBe('occurredAt must not be more than 7 days in the past');
    expect(results[5].error).toBe('idempotencyKey is required');
    expect(results[0]).toMatchObject({
      transaction: { pointsEarned: 30, capped: false },
      pushNotification: false,
      replayed: false,
    });
    expect(results[6].transaction).toMatchObject({
      pointsEarned: 20,
      occurredAt: new Date((items[6] as { occurredAt: string }).occurredAt).toISOString(),
    });
    expect(await pointsOf(userId)).toBe(50);
    expect((await db().collection('transactions').get()).size).toBe(2);

    // Each item alone, by the single endpoint: the same answers.
    const { idempotencyKey: _okKey, ...okDeposit } = items[0] as Record<string, unknown>;
    const aloneOk = await single(apiKey, okDeposit, 'ok-1');
    expect(aloneOk.headers.get('idempotent-replayed')).toBe('true');
    expect(aloneOk.body.transaction).toEqual(results[0].transaction);
    const { idempotencyKey: _key, ...noUser } = items[3] as Record<string, unknown>;
    expect((await single(apiKey, noUser, 'no-user')).body).toEqual({ error: results[3].error, code: results[3].code });
  });

  test('a batch sent again is replayed item by item: nothing awarded twice', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const batch = {
      transactions: Array.from({ length: 5 }, (_, i) => ({
        kioskId,
        userId,
        plasticCount: 1 + i,
        metalCount: 0,
        occurredAt: hoursAgo(48 - i),
        idempotencyKey: `backlog-${i}`,
      })),
    };
    const first = await upload(apiKey, batch);
    const again = await upload(apiKey, batch);
    expect(again.body.results.map((r: { replayed: boolean }) => r.replayed)).toEqual(Array(5).fill(true));
    expect(again.body.results.map((r: { transaction: unknown }) => r.transaction)).toEqual(
      first.body.results.map((r: { transaction: unknown }) => r.transaction),
    );
    expect(await pointsOf(userId)).toBe(150);
    expect((await db().collection('transactions').get()).size).toBe(5);
  });

  test('a key repeated inside one batch is a replay of its first occurrence (or 422 with another body)', async () => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const item = { kioskId, userId, plasticCount: 2, metalCount: 0, idempotencyKey: 'twice' };
    const res = await upload(apiKey, { transactions: [item, item, { ...item, plasticCount: 3 }] });
    const [first, repeat, changed] = res.body.results;
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(repeat).toMatchObject({ status: 200, replayed: true, transaction: first.transaction });
    expect(changed).toMatchObject({ status: 422, code: 'idempotency-key-reused' });
    expect(await pointsOf(userId)).toBe(20);
  });

  test('concurrent batches sharing keys award each key once', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const users = [await seedUser(), await seedUser(), await seedUser()];
    const deposits = Array.from({ length: 30 }, (_, i) => ({
      kioskId,
      userId: users[i % 3],
      plasticCount: 1,
      metalCount: 0,
      occurredAt: hoursAgo(i),
      idempotencyKey: `shared-${i}`,
    }));
    const item = (i: number) => deposits[i];
    const batches = [0, 1, 2, 3].map((offset) => ({
      transactions: Array.from({ length: 20 }, (_, i) => item((i + offset * 5) % 30)),
    }));
    const answers = await Promise.all(batches.map((batch) => upload(apiKey, batch)));
    const byKey = new Map<string, string>();
    for (const answer of answers) {
      for (const result of answer.body.results) {
        expect(result.status).toBe(200);
        const id = byKey.get(result.idempotencyKey) ?? result.transaction.id;
        expect(result.transaction.id).toBe(id);
        byKey.set(result.idempotencyKey, id);
      }
    }
    const fresh = answers.flatMap((answer) => answer.body.results).filter((r: { replayed: boolean }) => !r.replayed);
    expect(fresh).toHaveLength(byKey.size);
    expect((await db().collection('transactions').get()).size).toBe(byKey.size);
    const totals = await Promise.all(users.map(pointsOf));
    expect(totals.reduce((sum, points) => sum + points, 0)).toBe(byKey.size * 10);
  });

  test('users mixed, keys repeated, earlier keys replayed, the cap reached: the ledger and balances hold (audit OK)', async () => {
    await db().doc('config/rewards').set({ dailyPointsCap: 100 });
    const { kioskId, apiKey } = await seedKioskWithKey();
    const [alice, bob] = [await seedUser(), await seedUser({ pushToken: 'phone-bob' })];
    const [day1, day2] = [hoursAgo(30), hoursAgo(2)];
    const item = (userId: string, key: string, plasticCount: number, occurredAt = day1) => ({
      kioskId,
      userId,
      plasticCount,
      metalCount: 0,
      occurredAt,
      idempotencyKey: key,
    });
    const { idempotencyKey: _key, ...earlierDeposit } = item(alice, 'earlier', 3);
    const earlier = await single(apiKey, earlierDeposit, 'earlier');
    const transactions = [
      item(alice, 'b-0', 5), // day 1: 30 + 50
      item(bob, 'b-1', 4),
      item(alice, 'earlier', 3), // a replay of the single submission
      item(alice, 'b-3', 4), // day 1 reaches the cap: 20 of 40
      item(alice, 'b-0', 5), // a replay of the first item
      item(bob, 'b-1', 9), // the key again with another body
      item(alice, 'b-6', 2, day2), // another day, under its cap
      item(alice, 'b-7', 1), // day 1 capped: 0 points, the items still count
      item(bob, 'b-0', 5), // a third occurrence, another body
    ];
    const res = await upload(apiKey, { transactions });
    const results = res.body.results as {
      status: number;
      replayed?: boolean;
      code?: string;
      pushNotification?: boolean;
      transaction?: { id: string; pointsEarned: number; capped: boolean; newBalance: number };
    }[];
    expect(results.map((r) => [r.status, r.replayed ?? r.code])).toEqual([
      [200, false],
      [200, false],
      [200, true],
      [200, false],
      [200, true],
      [422, 'idempotency-key-reused'],
      [200, false],
      [200, false],
      [422, 'idempotency-key-reused'],
    ]);
    const figures = results.map((r) => r.transaction && [r.transaction.pointsEarned, r.transaction.capped]);
    expect(figures).toEqual([
      [50, false],
      [40, false],
      [30, false],
      [20, true],
      [50, false],
      undefined,
      [20, false],
      [0, true],
      undefined,
    ]);
    expect(results.map((r) => r.transaction?.newBalance)).toEqual([
      80,
      40,
      30,
      100,
      80,
      undefined,
      120,
      120,
      undefined,
    ]);
    expect(results[2].transaction).toEqual(earlier.body.transaction);
    expect(results[4].transaction).toEqual(results[0].transaction);
    expect(results[1].pushNotification).toBe(true);

    // Exactly one earn entry per transaction, each with the balance its transaction answered.
    const [ledger, recorded] = await Promise.all([
      db().collection('ledger').get(),
      db().collection('transactions').get(),
    ]);
    expect(ledger.docs.map((doc) => doc.id).sort()).toEqual(recorded.docs.map((doc) => doc.id).sort());
    for (const doc of recorded.docs) {
      const entry = ledger.docs.find((e) => e.id === doc.id)!;
      expect([entry.get('kind'), entry.get('points'), entry.get('balanceAfter')]).toEqual([
        'earn',
        doc.get('pointsEarned'),
        doc.get('newBalance'),
      ]);
    }
    expect(recorded.size).toBe(6);
    const userOf = async (userId: string) => (await db().collection('users').doc(userId).get()).data()!;
    expect(await userOf(alice)).toMatchObject({ currentPoints: 120, totalPoints: 120, recycledCount: 15 });
    expect(await userOf(bob)).toMatchObject({ currentPoints: 40, totalPoints: 40, recycledCount: 4 });

    // The same batch again: every item answered as before, nothing more awarded.
    const again = await upload(apiKey, { transactions });
    expect(again.body.results.map((r: { status: number }) => r.status)).toEqual(results.map((r) => r.status));
    expect(again.body.results.map((r: { transaction?: unknown }) => r.transaction)).toEqual(
      results.map((r) => r.transaction),
    );
    const items = recorded.docs.reduce((sum, doc) => sum + doc.get('plasticCount'), 0);
    await waitForKioskCount(kioskId, items, 60_000);
    expect(await auditBooks()).toMatchObject({ users: 2, kiosks: 1, entries: 6, transactions: 6, differences: [] });
  });

  test('100 items: every effect completes and the kiosk counts them exactly', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const users = await Promise.all(Array.from({ length: 10 }, () => seedUser()));
    const transactions = Array.from({ length: 100 }, (_, i) => ({
      kioskId,
      userId: users[i % 10],
      plasticCount: 1 + (i % 4),
      metalCount: i % 3,
      occurredAt: hoursAgo((i * 137) % 140),
      idempotencyKey: `hundred-${i}`,
    }));
    const res = await upload(apiKey, { transactions });
    expect(res.body.results.filter((r: { status: number }) => r.status !== 200)).toEqual([]);
    const plastic = transactions.reduce((sum, t) => sum + t.plasticCount, 0);
    const metal = transactions.reduce((sum, t) => sum + t.metalCount, 0);
    const kiosk = await waitForKioskCount(kioskId, plastic + metal, 90_000);
    expect(kiosk).toMatchObject({ plasticCount: plastic, metalCount: metal });
  });

  describe('a batch malformed as a whole: 400, nothing awarded', () => {
    type Item = Record<string, unknown>;
    test.each([
      ['not a list', (item: Item) => ({ transactions: item }), 'transactions must be array'],
      ['empty', () => ({ transactions: [] }), 'transactions must NOT have fewer than 1 items'],
      [
        '101 items',
        (item: Item) => ({ transactions: Array(101).fill(item) }),
        'transactions must NOT have more than 100 items',
      ],
      [
        'an item that is not an object',
        (item: Item) => ({ transactions: [item, null] }),
        'transactions.1 must be object',
      ],
      ['no list', () => ({}), 'transactions is required'],
      ['a list, not an object', (item: Item) => [item], 'request body must be a JSON object'],
    ])('%s', async (_, bodyWith, message) => {
      const { kioskId, apiKey } = await seedKioskWithKey();
      const userId = await seedUser();
      const res = await upload(
        apiKey,
        bodyWith({ kioskId, userId, plasticCount: 1, metalCount: 0, idempotencyKey: 'k' }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
      expect((await db().collection('transactions').get()).size).toBe(0);
    });
  });

  describe('a retry is answered from the record first', () => {
    /** The first upload of one keyed item: awarded, 40 points. */
    const firstUpload = async (occurredAt: string) => {
      const { kioskId, apiKey, userId } = await seedKioskAndUser();
      const item = { kioskId, userId, plasticCount: 2, metalCount: 1, occurredAt, idempotencyKey: 'offline-1' };
      const first = await upload(apiKey, { transactions: [item] });
      expect(first.body.results[0]).toMatchObject({ status: 200, replayed: false });
      return { kioskId, apiKey, userId, item, transaction: first.body.results[0].transaction };
    };
    /** `item` sent again, in a batch and then alone (POST /kiosk/transaction): both replay `transaction`. */
    const sentAgainBothWays = async (apiKey: string, item: { idempotencyKey: string }, transaction: unknown) => {
      const again = await upload(apiKey, { transactions: [item] });
      expect(again.body.results[0]).toMatchObject({ status: 200, replayed: true, transaction });
      const { idempotencyKey, ...body } = item;
      const alone = await single(apiKey, body, idempotencyKey);
      expect(alone.status).toBe(200);
      expect(alone.headers.get('idempotent-replayed')).toBe('true');
      return alone;
    };

    test('an item recorded while its occurredAt was in the window is replayed after the window moved past it', async () => {
      const { kioskId, apiKey, keyId } = await seedKioskWithKey();
      const userId = await seedUser();
      // Ten days back: what the service recorded when the window still held it (a
      // wider OFFLINE_MAX_DAYS, or 6 d 23 h 50 min back a quarter of an hour ago).
      const occurredAt = new Date(Date.now() - 10 * 24 * 3_600_000);
      const [recorded] = await awardTransactions(
        [
          {
            kioskId,
            userId,
            plasticCount: 2,
            metalCount: 1,
            occurredAt: occurredAt.toISOString(),
            happenedAt: occurredAt,
            idempotencyKey: 'late-1',
          },
        ],
        { apiKeyId: keyId, oldestAcceptedDay: '2000-01-01' },
      );
      if (!('outcome' in recorded)) throw recorded.error;
      const item = { kioskId, userId, plasticCount: 2, metalCount: 1, occurredAt: occurredAt.toISOString() };

      const again = await upload(apiKey, { transactions: [{ ...item, idempotencyKey: 'late-1' }] });
      expect(again.body.results[0]).toMatchObject({ status: 200, replayed: true });
      expect(again.body.results[0].transaction).toEqual(recorded.outcome.result.transaction);
      const alone = await single(apiKey, item, 'late-1');
      expect(alone.status).toBe(200);
      expect(alone.headers.get('idempotent-replayed')).toBe('true');
      // A new item as old is still refused: the window holds for what is not recorded.
      const fresh = await upload(apiKey, { transactions: [{ ...item, idempotencyKey: 'late-2' }] });
      expect(fresh.body.results[0]).toMatchObject({
        status: 400,
        error: 'occurredAt must not be more than 7 days in the past',
      });
      expect(await pointsOf(userId)).toBe(40);
    });

    test('an item retried after its kiosk went into maintenance is replayed, not refused', async () => {
      const { kioskId, apiKey, userId, item, transaction } = await firstUpload(hoursAgo(3));
      await db().collection('kiosks').doc(kioskId).update({ status: 'maintenance' });
      await sentAgainBothWays(apiKey, item, transaction);
      expect(await pointsOf(userId)).toBe(40);
    });

    test('a retry that leaves out the occurredAt of the first request is the same request', async () => {
      const { apiKey, userId, item, transaction } = await firstUpload(hoursAgo(30));
      const { occurredAt: _left, ...withoutTime } = item;
      const alone = await sentAgainBothWays(apiKey, withoutTime, transaction);
      expect(alone.body.transaction).toEqual(transaction);
      // Another time is another request.
      const moved = await upload(apiKey, { transactions: [{ ...item, occurredAt: hoursAgo(20) }] });
      expect(moved.body.results[0]).toMatchObject({ status: 422, code: 'idempotency-key-reused' });
      expect(await pointsOf(userId)).toBe(40);
    });
  });

  test.each([
    [{ idempotencyKey: 'café-1' }, 'idempotencyKey must be 1-255 visible ASCII characters (0x21-0x7E)'],
    [{ idempotencyKey: 'receipt 1' }, 'idempotencyKey must be 1-255 visible ASCII characters (0x21-0x7E)'],
    [{ occurredAt: null }, 'occurredAt must be string'],
  ])('an item with %p: 400 naming the field, nothing awarded', async (field, message) => {
    const { kioskId, apiKey, userId } = await seedKioskAndUser();
    const item = { kioskId, userId, plasticCount: 1, metalCount: 0, idempotencyKey: 'ok-1', ...field };
    const res = await upload(apiKey, { transactions: [item] });
    expect(res.body.results[0]).toMatchObject({ status: 400, code: 'invalid-argument', error: message });
    expect((await db().collection('transactions').get()).size).toBe(0);
  });

  test('without a kiosk key: 401', async () => {
    expect((await call('POST', '/kiosk/transactions/batch', { body: { transactions: [{}] } })).status).toBe(401);
  });
});
