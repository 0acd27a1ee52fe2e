/**
 * A person's data given back (contract §15): GET /user/{id}/export and user:export,
 * everything stored about them, read page by page; never the push token itself.
 */
import { getAuth } from 'firebase-admin/auth';
import { adminApp } from '../../src/adapters/firestore';
import { newLedgerEntry } from '../../src/data/ledger';
import { newNotification, notificationsOf } from '../../src/data/notifications';
import { EXPORT_PAGE } from '../../src/services/userExport';
import { admin } from './cli-runner';
import { db, resetEmulators, waitForEffects } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedTransaction, uniqueId } from './seeds';

beforeEach(resetEmulators);

/** A signed-up user with a deposit (its transaction, entry and notification), a redemption and a push token. */
async function userWithData() {
  const { kioskId, apiKey } = await seedKioskWithKey();
  const uid = uniqueId('person');
  await getAuth(adminApp()).createUser({ uid, email: `${uid}@example.com`, displayName: 'Ada Person' });
  const own = await bearerFor(uid);
  const deposit = await call('POST', '/kiosk/transaction', {
    body: { kioskId, userId: uid, plasticCount: 2, metalCount: 1 },
    headers: { 'x-api-key': apiKey },
  });
  expect(deposit.status).toBe(200);
  await waitForEffects(deposit.body.transaction.id);
  expect(
    (await call('PUT', `/user/${uid}/push-token`, { body: { token: 'secret-device-token' }, headers: own })).status,
  ).toBe(200);
  return { uid, own, kioskId, transactionId: deposit.body.transaction.id as string };
}

describe('GET /user/{id}/export', () => {
  test("the user's own: profile, account, ledger, transactions, redemptions, notifications; never the token", async () => {
    const { uid, own, kioskId, transactionId } = await userWithData();
    const res = await call('GET', `/user/${uid}/export`, { headers: own });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).not.toContain('secret-device-token');
    expect(res.body).toMatchObject({
      success: true,
      profile: { id: uid, name: 'Ada Person', currentPoints: 40, totalPoints: 40, hasPushToken: true },
      account: { email: `${uid}@example.com`, displayName: 'Ada Person' },
      ledger: [{ id: transactionId, kind: 'earn', points: 40, balanceAfter: 40 }],
      transactions: [{ id: transactionId, userId: uid, kioskId, pointsEarned: 40 }],
      redemptions: [],
      notifications: [{ id: transactionId, type: 'transaction', read: false }],
    });
  });

  test('an admin may export anyone; another user is refused (403); an unknown id is 404', async () => {
    const { uid } = await userWithData();
    expect((await call('GET', `/user/${uid}/export`, { headers: await adminHeaders() })).status).toBe(200);
    const other = await call('GET', `/user/${uid}/export`, { headers: await bearerFor(uniqueId('other')) });
    expect(other.status).toBe(403);
    expect(other.text).not.toContain(uid + '@');
    expect((await call('GET', `/user/${uniqueId('nobody')}/export`, { headers: await adminHeaders() })).status).toBe(
      404,
    );
  });

  test('a history longer than a page is exported whole, newest first, each item once', async () => {
    const { uid, own, kioskId } = await userWithData();
    const extra = EXPORT_PAGE + 20;
    for (let start = 0; start < extra; start += 400) {
      const batch = db().batch();
      for (let i = start; i < Math.min(extra, start + 400); i++) {
        batch.set(
          db().collection('ledger').doc(`extra-${i}`),
          newLedgerEntry({ userId: uid, kind: 'adjust', points: 0, balanceAfter: 40, reason: `entry ${i}` }),
        );
        batch.set(
          notificationsOf(uid).doc(`extra-${i}`),
          newNotification({ type: 'message', title: 'Hi', body: `n ${i}`, data: {} }),
        );
      }
      await batch.commit();
    }
    // Its trigger writes its notification: waited for, so that the export's count is the same on any timing.
    await waitForEffects((await seedTransaction(kioskId, uid)).transactionId);
    const res = await call('GET', `/user/${uid}/export`, { headers: own });
    expect(res.status).toBe(200);
    const ids = (list: { id: string }[]) => list.map(({ id }) => id);
    expect(new Set(ids(res.body.ledger)).size).toBe(extra + 1);
    expect(new Set(ids(res.body.notifications)).size).toBe(extra + 2);
    expect(res.body.transactions).toHaveLength(2);
    const times = res.body.ledger.map(({ createdAt }: { createdAt: string }) => createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe('user:export', () => {
  test('writes the same JSON to stdout', async () => {
    const { uid, own } = await userWithData();
    const fromCli = JSON.parse(await admin('user:export', '--uid', uid));
    const fromApi = (await call('GET', `/user/${uid}/export`, { headers: own })).body;
    expect({ ...fromCli, exportedAt: undefined }).toEqual({ ...fromApi, exportedAt: undefined });
  });
});
