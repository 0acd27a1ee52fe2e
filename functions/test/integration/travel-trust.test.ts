/**
 * Trust (contract §17), what the limits read: the user's latest deposit kept on the user, the kiosk's place kept on
 * each transaction, and the indexed query only for a deposit older than the latest (docs/trust.md, the costs).
 */
import { GeoPoint, Timestamp } from 'firebase-admin/firestore';
import { kiosksCollection } from '../../src/data/kiosks';
import { kioskWindowsCollection } from '../../src/data/kioskWindows';
import { saveRiskConfig } from '../../src/data/riskConfig';
import { transactionsCollection } from '../../src/data/transactions';
import { newProfile, usersCollection } from '../../src/data/users';
import { DEFAULT_REWARDS } from '../../src/domain/rewards';
import { issueKey } from '../../src/data/kioskKeys';
import { resetEmulators } from './helpers';
import { call } from './requests';
import { seedKiosk, seedTransaction, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const BERLIN = { latitude: 52.521918, longitude: 13.413215 };
const MUNICH = { latitude: 48.137154, longitude: 11.576124 };
const HOUR = 3_600_000;

const kioskAt = async (place: typeof BERLIN) => {
  const kioskId = await seedKiosk(place);
  return { kioskId, apiKey: (await issueKey(kioskId, 'test')).apiKey };
};
type Kiosk = Awaited<ReturnType<typeof kioskAt>>;
const depositOf = (kiosk: Kiosk, userId: string, occurredAt: Date) => ({
  kioskId: kiosk.kioskId,
  userId,
  plasticCount: 1,
  metalCount: 0,
  occurredAt: occurredAt.toISOString(),
});
const submit = async (kiosk: Kiosk, userId: string, occurredAt: Date) =>
  (
    await call('POST', '/kiosk/transaction', {
      body: depositOf(kiosk, userId, occurredAt),
      headers: { 'x-api-key': kiosk.apiKey },
    })
  ).body.transaction;
const geo = ({ latitude, longitude }: typeof BERLIN) => new GeoPoint(latitude, longitude);

describe('what the travel limit keeps', () => {
  test("each transaction keeps its kiosk's place and the user their latest deposit: no kiosk is read again", async () => {
    await saveRiskConfig({ travelKmh: 250 });
    const [berlin, munich] = [await kioskAt(BERLIN), await kioskAt(MUNICH)];
    const userId = await seedUser();
    const t0 = new Date(Date.now() - 6 * HOUR);

    const first = await submit(berlin, userId, t0);
    expect(first.status).toBe('awarded');
    expect((await transactionsCollection().doc(first.id).get()).get('kioskPlace')).toEqual(geo(BERLIN));
    expect((await usersCollection().doc(userId).get()).get('lastDeposit')).toEqual({
      kioskId: berlin.kioskId,
      occurredAt: Timestamp.fromDate(t0),
      place: geo(BERLIN),
    });
    // The Berlin kiosk is gone: the place the deposit kept still says where it was made.
    await kiosksCollection().doc(berlin.kioskId).delete();
    const fast = await submit(munich, userId, new Date(t0.getTime() + HOUR));
    expect(fast).toMatchObject({ status: 'held', holdReasons: ['impossible-travel'] });
    expect((await usersCollection().doc(userId).get()).get('lastDeposit')).toMatchObject({
      kioskId: munich.kioskId,
      place: geo(MUNICH),
    });
  });

  test('with every limit off an award reads and writes no window, and still keeps the latest deposit', async () => {
    const berlin = await kioskAt(BERLIN);
    const userId = await seedUser();
    expect((await submit(berlin, userId, new Date())).status).toBe('awarded');
    expect((await kioskWindowsCollection().doc(berlin.kioskId).get()).exists).toBe(false);
    expect((await usersCollection().doc(userId).get()).get('lastDeposit')).toMatchObject({ kioskId: berlin.kioskId });
  });

  test('a profile from before the latest deposit was kept: its deposits are looked up, its kiosks read', async () => {
    await saveRiskConfig({ travelKmh: 250 });
    const [berlin, munich] = [await kioskAt(BERLIN), await kioskAt(MUNICH)];
    const userId = uniqueId('user');
    await usersCollection()
      .doc(userId)
      .set(newProfile({ name: 'Before', recycledCount: 3 }, DEFAULT_REWARDS));
    // Recorded before places were kept on transactions.
    await seedTransaction(berlin.kioskId, userId, { occurredAt: new Date(Date.now() - 2 * HOUR) });
    const fast = await submit(munich, userId, new Date(Date.now() - HOUR));
    expect(fast).toMatchObject({ status: 'held', holdReasons: ['impossible-travel'] });
    expect((await usersCollection().doc(userId).get()).get('lastDeposit')).toMatchObject({ kioskId: munich.kioskId });
  });
});

describe('offline uploads older than the latest deposit', () => {
  /** A user who deposited in Berlin 20 and 10 hours ago, travel limit 250 km/h; `at` counts from the first. */
  async function twiceInBerlin() {
    await saveRiskConfig({ travelKmh: 250 });
    const [berlin, munich] = [await kioskAt(BERLIN), await kioskAt(MUNICH)];
    const userId = await seedUser();
    const t0 = Date.now() - 20 * HOUR;
    const at = (offset: number) => new Date(t0 + offset);
    expect((await submit(berlin, userId, at(0))).status).toBe('awarded');
    expect((await submit(berlin, userId, at(10 * HOUR))).status).toBe('awarded');
    return { munich, userId, at };
  }

  test('each is judged against the deposit recorded before it; the latest stays the latest', async () => {
    const { munich, userId, at } = await twiceInBerlin();
    // Made an hour after the first Berlin deposit, uploaded after the second: 504 km in an hour.
    expect(await submit(munich, userId, at(HOUR))).toMatchObject({
      status: 'held',
      holdReasons: ['impossible-travel'],
    });
    // The one before it is the Munich upload (same kiosk), not the Berlin deposit 30 minutes after it.
    expect((await submit(munich, userId, at(9.5 * HOUR))).status).toBe('awarded');
    // After the second Berlin deposit, which is still the latest.
    const late = await submit(munich, userId, at(10.5 * HOUR));
    expect(late).toMatchObject({ status: 'held', holdReasons: ['impossible-travel'] });
  });

  test('in one batch: each against the recorded ones and those before it in the batch', async () => {
    const { munich, userId, at } = await twiceInBerlin();

    const item = (kiosk: Kiosk, offset: number, key: string) => ({
      ...depositOf(kiosk, userId, at(offset)),
      idempotencyKey: key,
    });
    const upload = await call('POST', '/kiosk/transactions/batch', {
      body: {
        transactions: [
          // After the latest Berlin deposit: too fast.
          item(munich, 10.5 * HOUR, 'late'),
          // Older than the latest: the one before it is the first Berlin deposit (the one above is after it).
          item(munich, HOUR, 'early'),
          // The batch's deposit above is the one before it: at the same kiosk.
          item(munich, 1.5 * HOUR, 'later'),
        ],
      },
      headers: { 'x-api-key': munich.apiKey },
    });
    expect(upload.status).toBe(200);
    const results = upload.body.results.map((result: { transaction: { status: string } }) => result.transaction);
    expect(results.map(({ status }: { status: string }) => status)).toEqual(['held', 'held', 'awarded']);
    expect((await usersCollection().doc(userId).get()).get('lastDeposit')).toMatchObject({
      kioskId: munich.kioskId,
      occurredAt: Timestamp.fromDate(at(10.5 * HOUR)),
    });
  });
});
