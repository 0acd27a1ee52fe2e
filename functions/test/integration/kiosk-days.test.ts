/**
 * Daily reports (contract §7): kioskDays kept by the transaction trigger by the UTC day
 * of `occurredAt`, exactly once under redelivery, and GET /admin/reports/kiosk-days.
 */
import type { PushTransport } from '../../src/adapters/push';
import { kioskDayRef } from '../../src/data/kioskDays';
import { transactionsCollection } from '../../src/data/transactions';
import type { KioskDayRow } from '../../src/domain/kioskDays';
import { utcDay } from '../../src/domain/rewards';
import { transactionEffects } from '../../src/index';
import { applyTransactionEffects } from '../../src/services/transactionEffects';
import * as wait from '../harness/wait';
import { db, functionsTestEnv, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, call, nonAdminHeaders } from './requests';
import { kioskDayRow, seedKiosk, seedKioskDays, seedTransaction, seedUser } from './seeds';

const testEnv = functionsTestEnv();
const DAY_MS = 86_400_000;

beforeEach(resetEmulators);

const report = async (query: string) =>
  call('GET', `/admin/reports/kiosk-days?${query}`, { headers: await adminHeaders() });

async function storedDay(kioskId: string, day: string) {
  return (await kioskDayRef(kioskId, day).get()).data();
}

describe('kept by the transaction trigger', () => {
  test('per UTC day of occurredAt (createdAt for a transaction without one), equal to the transaction documents', async () => {
    const kioskId = await seedKiosk();
    const userId = await seedUser();
    const now = Date.now();
    // The last minute of a UTC day (already the next day in Berlin) counts on that UTC day.
    const lastMinuteTwoDaysAgo = new Date(Math.floor(now / DAY_MS) * DAY_MS - DAY_MS - 60_000);
    const seeded = await Promise.all([
      seedTransaction(kioskId, userId, { plasticCount: 3, metalCount: 0, occurredAt: lastMinuteTwoDaysAgo }),
      seedTransaction(kioskId, userId, { plasticCount: 1, metalCount: 4, occurredAt: lastMinuteTwoDaysAgo }),
      seedTransaction(kioskId, userId, { plasticCount: 0, metalCount: 2, occurredAt: new Date(now - 5 * DAY_MS) }),
      seedTransaction(kioskId, userId, { plasticCount: 5, metalCount: 5 }),
    ]);
    await wait.waitForEffects(
      transactionsCollection(),
      seeded.map(({ transactionId }) => transactionId),
    );

    const today = utcDay(new Date(now));
    const from = utcDay(new Date(now - 6 * DAY_MS));
    const res = await report(`from=${from}&to=${today}`);
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([
      { kioskId, day: utcDay(new Date(now - 5 * DAY_MS)), transactions: 1, plasticCount: 0, metalCount: 2, points: 40 },
      { kioskId, day: utcDay(lastMinuteTwoDaysAgo), transactions: 2, plasticCount: 4, metalCount: 4, points: 120 },
      { kioskId, day: today, transactions: 1, plasticCount: 5, metalCount: 5, points: 150 },
    ]);
    const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
    expect([kiosk.plasticCount, kiosk.metalCount]).toEqual([9, 11]);
    const marks = await Promise.all(
      seeded.map(async ({ transactionId }) => (await transactionsCollection().doc(transactionId).get()).get('effects')),
    );
    expect(marks.map((effects) => [effects.kioskCounted, effects.kioskDay])).toEqual([
      [true, utcDay(lastMinuteTwoDaysAgo)],
      [true, utcDay(lastMinuteTwoDaysAgo)],
      [true, utcDay(new Date(now - 5 * DAY_MS))],
      [true, today],
    ]);
  });
});

describe('redelivered', () => {
  withoutBackgroundTriggers();

  test('the same event run twice, and two runs at once: the day counts the transaction once', async () => {
    const kioskId = await seedKiosk();
    const userId = await seedUser({ pushToken: 'phone-report' });
    const occurredAt = new Date(Date.now() - 3 * DAY_MS);
    const { transactionId, recorded } = await seedTransaction(kioskId, userId, { occurredAt });
    const other = await seedTransaction(kioskId, userId, { plasticCount: 4, metalCount: 0, occurredAt });

    const wrapped = testEnv.wrap(transactionEffects);
    const event = {
      id: 'event-1',
      params: { transactionId },
      data: testEnv.firestore.makeDocumentSnapshot(recorded, `transactions/${transactionId}`),
    };
    const sent: unknown[] = [];
    const recording: PushTransport = { send: async (message) => (sent.push(message), `message-${sent.length}`) };
    await Promise.all([
      applyTransactionEffects(transactionId, recording),
      applyTransactionEffects(transactionId, recording),
      applyTransactionEffects(other.transactionId, recording),
    ]);
    await wrapped(event);
    await wrapped(event);

    expect(await storedDay(kioskId, utcDay(occurredAt))).toMatchObject({
      kioskId,
      day: utcDay(occurredAt),
      transactions: 2,
      plasticCount: 6,
      metalCount: 1,
      points: 80,
    });
    const kiosk = (await db().collection('kiosks').doc(kioskId).get()).data()!;
    expect([kiosk.plasticCount, kiosk.metalCount]).toEqual([6, 1]);
    expect(sent).toHaveLength(2);
  });
});

describe('GET /admin/reports/kiosk-days', () => {
  const seeded = [
    kioskDayRow('munich', '2026-11-23', 2),
    kioskDayRow('berlin', '2026-11-24', 1),
    kioskDayRow('berlin', '2026-11-23', 5),
    kioskDayRow('amsterdam', '2026-11-23', 3),
    kioskDayRow('berlin', '2026-10-31', 7),
    kioskDayRow('berlin', '2026-12-01', 9),
  ];

  test('the rows from `from` to `to`, both included, sorted by day, then kiosk', async () => {
    await seedKioskDays(seeded);
    const res = await report('from=2026-11-01&to=2026-11-30');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      rows: [
        kioskDayRow('amsterdam', '2026-11-23', 3),
        kioskDayRow('berlin', '2026-11-23', 5),
        kioskDayRow('munich', '2026-11-23', 2),
        kioskDayRow('berlin', '2026-11-24', 1),
      ],
    });
    expect((await report('from=2026-10-31&to=2026-10-31')).body.rows).toEqual([kioskDayRow('berlin', '2026-10-31', 7)]);
    expect((await report('from=2026-12-02&to=2026-12-31')).body.rows).toEqual([]);
  });

  test('one kiosk', async () => {
    await seedKioskDays(seeded);
    const res = await report('from=2026-10-01&to=2026-12-31&kioskId=berlin');
    expect(res.body.rows.map((r: KioskDayRow) => r.day)).toEqual([
      '2026-10-31',
      '2026-11-23',
      '2026-11-24',
      '2026-12-01',
    ]);
    expect((await report('from=2026-10-01&to=2026-12-31&kioskId=nowhere')).body.rows).toEqual([]);
  });

  test('format=csv: the same rows as text/csv with a header line', async () => {
    await seedKioskDays([...seeded, kioskDayRow('kiosk, "quoted"', '2026-11-23', 1)]);
    const res = await report('from=2026-11-23&to=2026-11-24&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe(
      [
        'kioskId,day,transactions,plasticCount,metalCount,points',
        'amsterdam,2026-11-23,3,6,3,120',
        'berlin,2026-11-23,5,10,5,200',
        '"kiosk, ""quoted""",2026-11-23,1,2,1,40',
        'munich,2026-11-23,2,4,2,80',
        'berlin,2026-11-24,1,2,1,40',
        '',
      ].join('\r\n'),
    );
    const json = await report('from=2026-11-23&to=2026-11-24&format=json');
    expect(json.body.rows).toHaveLength(5);
  });

  test('92 days is the most', async () => {
    await seedKioskDays(seeded);
    expect((await report('from=2026-09-01&to=2026-12-01')).status).toBe(200);
    const res = await report('from=2026-09-01&to=2026-12-02');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('to must be within 92 days of from (both included)');
  });

  test.each([
    ['to=2026-11-30', 'from is required'],
    ['from=2026-11-01', 'to is required'],
    ['', 'from is required'],
    ['from=2026-11-31&to=2026-12-01', 'from must be a calendar day as YYYY-MM-DD'],
    ['from=2026-11-01&to=2026-11-1', 'to must be a calendar day as YYYY-MM-DD'],
    ['from=&to=2026-11-01', 'from must be a calendar day as YYYY-MM-DD'],
    ['from=2026-11-02&to=2026-11-01', 'to must not be before from'],
    ['from=2026-01-01&to=2026-12-31', 'to must be within 92 days of from'],
    ['from=2026-11-01&to=2026-11-02&kioskId=..', 'kioskId must be 1-128 characters'],
    ['from=2026-11-01&to=2026-11-02&kioskId=', 'kioskId must be 1-128 characters'],
    ['from=2026-11-01&to=2026-11-02&format=xml', 'format must be json or csv'],
    ['from=2026-11-01&to=2026-11-02&format=CSV', 'format must be json or csv'],
    ['from=2026-11-01&to=2026-11-02&from=2026-11-01', 'Query parameter from must be given once'],
    ['from=2026-11-01&to=2026-11-02&limit=10', 'Unknown query parameter limit'],
  ])('%p: 400 naming the parameter', async (query, message) => {
    const res = await report(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining(message), code: 'invalid-argument' });
  });

  test('admins only: no token 401, a user 403', async () => {
    const path = '/admin/reports/kiosk-days?from=2026-11-01&to=2026-11-02';
    expect((await call('GET', path)).status).toBe(401);
    expect((await call('GET', path, { headers: await nonAdminHeaders() })).status).toBe(403);
  });
});
