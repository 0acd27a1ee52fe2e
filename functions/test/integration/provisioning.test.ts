/**
 * A profile is provisioned on the first request that needs one (contract part three:
 * "Everything is 2nd gen"): the user's own first /user/{id} request, or a kiosk
 * transaction naming a uid that has an Auth account but no profile; never over an
 * existing profile, and concurrent first requests all succeed.
 */
import { getAuth } from 'firebase-admin/auth';
import { adminApp } from '../../src/adapters/firestore';
import { provisionProfile } from '../../src/services/provisioning';
import { db, resetEmulators, waitForEffects } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const profileOf = async (uid: string) => (await db().collection('users').doc(uid).get()).data();

/** An Auth account and no profile: what a sign-up leaves now that no trigger provisions. */
async function accountWithoutProfile(fields: { displayName?: string; email?: string } = {}): Promise<string> {
  const { uid } = await getAuth(adminApp()).createUser({ uid: uniqueId('newcomer'), ...fields });
  expect(await profileOf(uid)).toBeUndefined();
  return uid;
}

const submit = (apiKey: string, body: Record<string, unknown>) =>
  call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey } });

describe("the user's own first request", () => {
  test('GET /user/{id} provisions the profile, named after the display name, with no points', async () => {
    const uid = await accountWithoutProfile({ email: 'grace@example.com', displayName: 'Grace Hopper' });
    const res = await call('GET', `/user/${uid}`, { headers: await bearerFor(uid) });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      id: uid,
      name: 'Grace Hopper',
      currentPoints: 0,
      totalPoints: 0,
      recycledCount: 0,
      rank: 'Bronze',
      hasPushToken: false,
      expiringPoints: null,
      heldPoints: 0,
      suspended: false,
    });
    const profile = await profileOf(uid);
    expect(profile).toMatchObject({ name: 'Grace Hopper', currentPoints: 0, totalPoints: 0, recycledCount: 0 });
    expect(profile?.rank).toBe('Bronze');
    expect(profile?.createdAt).toBeDefined();
  });

  test('without a display name, the e-mail local part names the profile', async () => {
    const uid = await accountWithoutProfile({ email: 'linus.t@example.com' });
    await call('GET', `/user/${uid}`, { headers: await bearerFor(uid) });
    expect((await profileOf(uid))?.name).toBe('linus.t');
  });

  test.each([
    ['GET', 'history', undefined, {}],
    ['GET', 'redemptions', undefined, {}],
    ['PUT', 'push-token', { token: 'first-phone' }, {}],
    ['DELETE', 'push-token', undefined, {}],
    // No reward of this id: the request goes on after provisioning and answers for the reward.
    ['POST', 'redemptions', { rewardId: 'no-such-reward' }, { 'idempotency-key': 'first' }],
  ] as const)(
    '%s /user/{id}/%s provisions too, and answers as for a user with no points',
    async (method, segment, body, extra) => {
      const uid = await accountWithoutProfile({ displayName: 'Ada' });
      const res = await call(method, `/user/${uid}/${segment}`, {
        body,
        headers: { ...(await bearerFor(uid)), ...extra },
      });
      expect(await profileOf(uid)).toMatchObject({ name: 'Ada', currentPoints: 0 });
      if (method === 'POST') expect(res.body).toEqual({ error: 'Reward no-such-reward not found', code: 'not-found' });
      else expect(res.status).toBe(200);
    },
  );

  test('concurrent first requests all succeed and make one profile', async () => {
    const uid = await accountWithoutProfile({ displayName: 'Many Tabs' });
    const headers = await bearerFor(uid);
    const answers = await Promise.all(
      ['', '/history', '', '/redemptions', ''].map((path) => call('GET', `/user/${uid}${path}`, { headers })),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await profileOf(uid)).toMatchObject({ name: 'Many Tabs', currentPoints: 0 });
  });

  test('an existing profile is never overwritten', async () => {
    const uid = await seedUser({ name: 'Imported', currentPoints: 500, totalPoints: 500 });
    await getAuth(adminApp()).createUser({ uid, displayName: 'Someone Else' });
    expect(await provisionProfile(uid)).toBe(true);
    const res = await call('GET', `/user/${uid}`, { headers: await bearerFor(uid) });
    expect(res.body.user).toMatchObject({ name: 'Imported', currentPoints: 500 });
    expect(await profileOf(uid)).toMatchObject({ name: 'Imported', currentPoints: 500, totalPoints: 500 });
  });

  test("an admin's request about an account without a profile provisions nothing: 404", async () => {
    const uid = await accountWithoutProfile({ displayName: 'Not Yet' });
    const res = await call('GET', `/user/${uid}`, { headers: await adminHeaders() });
    expect([res.status, res.body.code]).toEqual([404, 'not-found']);
    expect(await profileOf(uid)).toBeUndefined();
  });
});

describe('a kiosk transaction naming an account without a profile', () => {
  test('provisions the profile in the award commit and awards', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const uid = await accountWithoutProfile({ email: 'kiosk.first@example.com' });
    const res = await submit(apiKey, { kioskId, userId: uid, plasticCount: 2, metalCount: 1 });
    expect(res.status).toBe(200);
    expect(res.body.transaction).toMatchObject({ userId: uid, pointsEarned: 40, newBalance: 40 });
    const profile = await profileOf(uid);
    expect(profile).toMatchObject({
      name: 'kiosk.first',
      currentPoints: 40,
      totalPoints: 40,
      recycledCount: 3,
      rank: 'Bronze',
    });
    expect(profile?.createdAt).toBeDefined();
    expect(profile).not.toHaveProperty('earnedToday');
    expect((await waitForEffects(res.body.transaction.id)).effects.push).toEqual({ status: 'skipped' });
  });

  test('concurrent transactions for the new account: one profile, every award counted', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const uid = await accountWithoutProfile({ displayName: 'Rush' });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => submit(apiKey, { kioskId, userId: uid, plasticCount: 1, metalCount: 0 })),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect(await profileOf(uid)).toMatchObject({ name: 'Rush', currentPoints: 40, recycledCount: 4 });
  });

  test('a batch item for the new account provisions and awards like a single one', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const uid = await accountWithoutProfile({ displayName: 'Offline' });
    const item = (key: string) => ({ kioskId, userId: uid, plasticCount: 1, metalCount: 1, idempotencyKey: key });
    const res = await call('POST', '/kiosk/transactions/batch', {
      body: { transactions: [item('b-1'), item('b-2')] },
      headers: { 'x-api-key': apiKey },
    });
    expect(res.body.results.map((result: { status: number }) => result.status)).toEqual([200, 200]);
    expect(await profileOf(uid)).toMatchObject({ name: 'Offline', currentPoints: 60 });
  });

  test('an existing profile is awarded, never replaced', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const uid = await seedUser({ name: 'Imported', currentPoints: 500, totalPoints: 500 });
    await getAuth(adminApp()).createUser({ uid, displayName: 'Someone Else' });
    const res = await submit(apiKey, { kioskId, userId: uid, plasticCount: 1, metalCount: 0 });
    expect(res.body.transaction.newBalance).toBe(510);
    expect(await profileOf(uid)).toMatchObject({ name: 'Imported', currentPoints: 510, totalPoints: 510 });
  });

  test('a uid without an Auth account is still 404, and no profile is made', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const res = await submit(apiKey, { kioskId, userId: 'nobody-at-all', plasticCount: 1, metalCount: 0 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'User nobody-at-all not found', code: 'not-found' });
    expect(await profileOf('nobody-at-all')).toBeUndefined();
  });
});
