import {
  call,
  db,
  describeTransactionEffects,
  resetEmulators,
  seedKiosk,
  seedKioskAndUser,
  seedKioskWithKey,
  seedUser,
  waitFor,
} from './helpers';

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
    const counted = async () => {
      const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
      return kiosk.plasticCount + kiosk.metalCount >= plastic + metal ? kiosk : undefined;
    };
    const kiosk = await waitFor('the 100 deposits counted on the kiosk', counted, 90_000, describeTransactionEffects);
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

  test('without a kiosk key: 401', async () => {
    expect((await call('POST', '/kiosk/transactions/batch', { body: { transactions: [{}] } })).status).toBe(401);
  });
});
