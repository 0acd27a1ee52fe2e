/**
 * A person erased (contract §15): by the API, by the CLI and by the users sweep after
 * a deletion in the Firebase console (the Admin SDK's deleteUser), twice, and racing
 * a deposit. The books stay balanced (the audit), the id is refused afterwards and
 * never provisioned again.
 */
import { getAuth } from 'firebase-admin/auth';
import { adminApp } from '../../src/adapters/firestore';
import { notificationsOf } from '../../src/data/notifications';
import { eraseUser, forfeitEntryId } from '../../src/services/erasure';
import { runUsersSweep } from '../../src/triggers/usersSweep';
import { OutboxPushTransport } from '../../src/adapters/push';
import { applyTransactionEffects } from '../../src/services/transactionEffects';
import { revokeSessions } from '../harness/auth';
import { admin } from './cli-runner';
import { injectCommitFaults, writesDocument } from './commit-faults';
import { db, resetEmulators, waitForEffects, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, bearer, bearerFor, call, idTokenFor } from './requests';
import { seedKioskWithKey, seedUser, seedUserTransaction, uniqueId } from './seeds';
import { pushTokenHolderRef } from '../../src/data/pushTokens';

beforeEach(resetEmulators);

const auth = () => getAuth(adminApp());
const profileOf = async (uid: string) => (await db().collection('users').doc(uid).get()).data();
const accountExists = (uid: string) =>
  auth()
    .getUser(uid)
    .then(
      () => true,
      () => false,
    );

const deposit = (apiKey: string, kioskId: string, userId: string) =>
  call('POST', '/kiosk/transaction', {
    body: { kioskId, userId, plasticCount: 2, metalCount: 1 },
    headers: { 'x-api-key': apiKey },
  });

/**
 * A signed-up user (an Auth account, provisioned by their first deposit) with 40
 * points, a push token and the deposit's notification; returns what a test needs.
 */
async function userWithHistory() {
  const { kioskId, apiKey } = await seedKioskWithKey();
  const uid = uniqueId('person');
  await auth().createUser({ uid, email: `${uid}@example.com`, displayName: 'Ada Person' });
  const first = await deposit(apiKey, kioskId, uid);
  expect(first.status).toBe(200);
  await waitForEffects(first.body.transaction.id);
  const own = await bearerFor(uid);
  expect((await call('PUT', `/user/${uid}/push-token`, { body: { token: 'device-1' }, headers: own })).status).toBe(
    200,
  );
  return { kioskId, apiKey, uid, own, transactionId: first.body.transaction.id as string };
}

/** Everything §15 says of an erased user, with `forfeited` points written off once. */
async function expectErased(person: Awaited<ReturnType<typeof userWithHistory>>, forfeited: number) {
  const { uid, kioskId, apiKey, transactionId } = person;
  expect(await accountExists(uid)).toBe(false);
  const profile = await profileOf(uid);
  // Marked until the effects sweep finishes the erasure (no trigger that read the user before it can still write).
  expect(profile).toMatchObject({ currentPoints: 0, totalPoints: 40, effectsPending: true });
  // The account's mark goes with the account (an erasure cut short before that keeps it for the users sweep).
  expect(profile).not.toHaveProperty('authAccount');
  expect(profile?.erasedAt).toBeDefined();
  for (const field of ['name', 'pushToken', 'pushTokenUpdatedAt', 'earnedByDay'])
    expect(profile).not.toHaveProperty(field);
  // Nor does the device token's holder document name them.
  expect((await pushTokenHolderRef('device-1').get()).exists).toBe(false);
  expect((await notificationsOf(uid).get()).size).toBe(0);
  // The books, under the bare id: the deposit's transaction and entries, and one forfeit.
  expect((await db().doc(`transactions/${transactionId}`).get()).get('userId')).toBe(uid);
  const entries = await db().collection('ledger').where('userId', '==', uid).get();
  const forfeits = entries.docs.filter((entry) => entry.get('kind') === 'forfeit');
  expect(forfeits.map((entry) => [entry.id, entry.get('points'), entry.get('balanceAfter')])).toEqual(
    forfeited > 0 ? [[forfeitEntryId(uid), -forfeited, 0]] : [],
  );
  // Refused afterwards: every user route, with an admin's token and the user's own, and new deposits.
  const asAdmin = await adminHeaders();
  for (const path of [`/user/${uid}`, `/user/${uid}/history`, `/user/${uid}/redemptions`, `/user/${uid}/export`]) {
    expect((await call('GET', path, { headers: asAdmin })).status).toBe(404);
    // The user's own token outlives the account by up to an hour: 404 where only its signature is checked; the
    // Auth emulator also looks the account up on every verification, so it is 401 here.
    expect([401, 404]).toContain((await call('GET', path, { headers: person.own })).status);
  }
  expect((await deposit(apiKey, kioskId, uid)).status).toBe(404);
  expect(await admin('audit')).toMatch(/^audit: OK/);
}

describe('DELETE /user/{id}', () => {
  test('by the user: erased, the balance forfeited; again by an admin: the same, one forfeit', async () => {
    const person = await userWithHistory();
    const res = await call('DELETE', `/user/${person.uid}`, { headers: person.own });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    await expectErased(person, 40);

    const again = await call('DELETE', `/user/${person.uid}`, { headers: await adminHeaders() });
    expect(again).toMatchObject({ status: 200, body: { success: true } });
    await expectErased(person, 40);
  });

  test('another user is refused (403), and nothing is erased', async () => {
    const person = await userWithHistory();
    const res = await call('DELETE', `/user/${person.uid}`, { headers: await bearerFor(uniqueId('other')) });
    expect(res.status).toBe(403);
    expect(await accountExists(person.uid)).toBe(true);
    expect((await profileOf(person.uid))?.name).toBe('Ada Person');
  });

  test('the id is never provisioned again, even if an account with it signs up again', async () => {
    const person = await userWithHistory();
    expect((await call('DELETE', `/user/${person.uid}`, { headers: person.own })).status).toBe(200);
    await auth().createUser({ uid: person.uid });
    expect((await call('GET', `/user/${person.uid}`, { headers: await bearerFor(person.uid) })).status).toBe(404);
    expect((await deposit(person.apiKey, person.kioskId, person.uid)).status).toBe(404);
    expect(await profileOf(person.uid)).not.toHaveProperty('name');
  });
});

/**
 * The user's own ID token as if they had signed in `seconds` before it was issued: the
 * Auth emulator's tokens are unsigned, and the Admin SDK checks no signature on them.
 */
async function ownTokenSignedInBefore(uid: string, seconds: number) {
  const [header, payload] = (await idTokenFor(uid)).split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { auth_time: number };
  claims.auth_time -= seconds;
  return bearer(`${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`);
}

describe('a fresh sign-in for DELETE /user/{id} and GET /user/{id}/export', () => {
  test("the user's own token of a sign-in over 5 minutes ago, or revoked, is 401; an admin's works", async () => {
    const person = await userWithHistory();
    const routes = [
      ['DELETE', `/user/${person.uid}`],
      ['GET', `/user/${person.uid}/export`],
    ] as const;
    const stale = await ownTokenSignedInBefore(person.uid, 6 * 60);
    // The same token, fresh, still reads the user's other data.
    expect((await call('GET', `/user/${person.uid}`, { headers: stale })).status).toBe(200);
    for (const [method, path] of routes) {
      expect(await call(method, path, { headers: stale })).toMatchObject({
        status: 401,
        body: { code: 'recent-sign-in-required' },
      });
    }
    await revokeSessions(person.uid);
    for (const [method, path] of routes) {
      expect(await call(method, path, { headers: person.own })).toMatchObject({
        status: 401,
        body: { code: 'recent-sign-in-required' },
      });
    }
    expect(await accountExists(person.uid)).toBe(true);
    expect((await profileOf(person.uid))?.name).toBe('Ada Person');

    const asAdmin = await adminHeaders();
    expect((await call('GET', `/user/${person.uid}/export`, { headers: asAdmin })).status).toBe(200);
    expect((await call('DELETE', `/user/${person.uid}`, { headers: asAdmin })).status).toBe(200);
    await expectErased(person, 40);
  });
});

describe('an erasure cut short', () => {
  test('the profile is erased first: an Auth outage after it leaves no live profile, and the users sweep deletes the account', async () => {
    const person = await userWithHistory();
    const outage = Object.assign(new Error('The Auth backend is unavailable (injected)'), {
      code: 'auth/internal-error',
    });
    const deleteUser = jest.spyOn(auth(), 'deleteUser').mockRejectedValueOnce(outage);
    try {
      await expect(eraseUser(person.uid, 'test')).rejects.toThrow(/unavailable/);
    } finally {
      deleteUser.mockRestore();
    }
    expect((await profileOf(person.uid))?.erasedAt).toBeDefined();
    expect(await accountExists(person.uid)).toBe(true);

    expect(await runUsersSweep()).toEqual({
      profiles: 1,
      checked: 0,
      erased: 0,
      accountsDeleted: 1,
      unfinished: false,
    });
    await expectErased(person, 40);
    expect(await runUsersSweep()).toEqual({
      profiles: 1,
      checked: 0,
      erased: 0,
      accountsDeleted: 0,
      unfinished: false,
    });
  });
});

describe('user:delete', () => {
  test('erases as the API does; twice changes nothing more', async () => {
    const person = await userWithHistory();
    expect(JSON.parse(await admin('user:delete', '--uid', person.uid))).toEqual({
      userId: person.uid,
      accountDeleted: true,
      forfeited: 40,
    });
    await expectErased(person, 40);
    expect(JSON.parse(await admin('user:delete', '--uid', person.uid))).toEqual({
      userId: person.uid,
      accountDeleted: false,
      forfeited: 40,
    });
    await expectErased(person, 40);
  });
});

describe('the users sweep', () => {
  test('erases a profile whose account was deleted in the console, never a profile that had none', async () => {
    const person = await userWithHistory();
    const seeded = await seedUser({ name: 'Seeded Only', currentPoints: 0 });
    await auth().deleteUser(person.uid);

    expect(await runUsersSweep()).toEqual({
      profiles: 2,
      checked: 1,
      erased: 1,
      accountsDeleted: 0,
      unfinished: false,
    });
    await expectErased(person, 40);
    expect((await profileOf(seeded))?.name).toBe('Seeded Only');

    // Again, through the CLI: the erased profile is not looked up again.
    expect(JSON.parse(await admin('users:sweep'))).toEqual({
      profiles: 2,
      checked: 0,
      erased: 0,
      accountsDeleted: 0,
      unfinished: false,
    });
    await expectErased(person, 40);
  });

  test('looks accounts up at most 100 a call', async () => {
    const uids = Array.from({ length: 230 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
    await Promise.all(
      uids.map((uid) =>
        db().collection('users').doc(uid).set({ name: uid, currentPoints: 0, totalPoints: 0, authAccount: true }),
      ),
    );
    const getUsers = jest.spyOn(auth(), 'getUsers');
    try {
      expect(await runUsersSweep()).toEqual({
        profiles: 230,
        checked: 230,
        erased: 230,
        accountsDeleted: 0,
        unfinished: false,
      });
      expect(getUsers.mock.calls.map(([identifiers]) => identifiers.length)).toEqual([100, 100, 30]);
    } finally {
      getUsers.mockRestore();
    }
    expect(await admin('audit')).toMatch(/^audit: OK/);
  });

  test('a run whose budget is spent stops after a lookup batch; the next continues after it, then from the start', async () => {
    const uids = Array.from({ length: 230 }, (_, i) => `swept-${String(i).padStart(3, '0')}`);
    await Promise.all(
      uids.map((uid) =>
        db().collection('users').doc(uid).set({ name: uid, currentPoints: 0, totalPoints: 0, authAccount: true }),
      ),
    );
    // A budget of 0 is spent at once: each run does one batch of lookups (at most 100 profiles), then stops.
    expect(await runUsersSweep({ budgetMs: 0 })).toEqual({
      profiles: 100,
      checked: 100,
      erased: 100,
      accountsDeleted: 0,
      stoppedAfter: 'swept-099',
      unfinished: true,
    });
    expect(await runUsersSweep({ budgetMs: 0 })).toMatchObject({
      profiles: 100,
      erased: 100,
      stoppedAfter: 'swept-199',
    });
    expect(await runUsersSweep({ budgetMs: 0 })).toEqual({
      profiles: 30,
      checked: 30,
      erased: 30,
      accountsDeleted: 0,
      unfinished: false,
    });
    for (const uid of uids) expect((await profileOf(uid))?.erasedAt).toBeDefined();
    // The end reached, the next run starts from the first profile again (and finds them all erased).
    expect(await runUsersSweep({ budgetMs: 0 })).toEqual({
      profiles: 230,
      checked: 0,
      erased: 0,
      accountsDeleted: 0,
      unfinished: false,
    });
  });
});

describe('an erasure racing a deposit', () => {
  test("a deposit that commits between the erasure's read and its commit is written off too", async () => {
    const person = await userWithHistory();
    let raced: Awaited<ReturnType<typeof deposit>> | undefined;
    const fault = injectCommitFaults(db(), writesDocument(`users/${person.uid}`), 1, {
      before: async () => {
        raced = await deposit(person.apiKey, person.kioskId, person.uid);
      },
    });
    try {
      await eraseUser(person.uid, 'test');
    } finally {
      fault.restore();
    }
    expect(fault.injected()).toBe(1);
    expect(raced?.status).toBe(200);
    await waitForEffects(raced!.body.transaction.id);
    const profile = await profileOf(person.uid);
    expect(profile).toMatchObject({ currentPoints: 0, totalPoints: 80 });
    const forfeit = await db()
      .doc(`ledger/${forfeitEntryId(person.uid)}`)
      .get();
    expect([forfeit.get('points'), forfeit.get('balanceAfter')]).toEqual([-80, 0]);
    expect(await admin('audit')).toMatch(/^audit: OK/);
  });

  test('a deposit after the erasure is 404', async () => {
    const person = await userWithHistory();
    await eraseUser(person.uid, 'test');
    expect((await deposit(person.apiKey, person.kioskId, person.uid)).status).toBe(404);
    expect(await admin('audit')).toMatch(/^audit: OK/);
  });
});

describe('effects of a deposit recorded before the erasure, run after it', () => {
  withoutBackgroundTriggers();

  test('tell the erased user nothing: no notification, no push', async () => {
    const { userId: uid, transactionId } = await seedUserTransaction('device-2');
    await eraseUser(uid, 'test');
    await applyTransactionEffects(transactionId, new OutboxPushTransport());
    expect((await notificationsOf(uid).get()).size).toBe(0);
    const effects = (await db().doc(`transactions/${transactionId}`).get()).get('effects');
    expect(effects).toMatchObject({ untold: 'user-erased' });
    expect(effects).not.toHaveProperty('push');
  });
});
