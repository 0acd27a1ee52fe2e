// @ts-check
// The bench's data: kiosks with keys (and a revoked key each), users (every other one
// with a push token), users signed in to the Auth emulator (each with a history of
// points), an admin and a rewards catalog; and, for the throughput section, the same kiosks with more or
// fewer users in a project of their own per data size.
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { fleetKioskDoc, fleetUserDoc, fleetUserWithHistory, writeAll } from '../lib/fleet.mjs';
import { db, requireFn } from './endpoints.mjs';
import { projectFirestore } from './growth.mjs';
import { BENCH_REWARDS } from './reward-endpoints.mjs';

const { issueKey, keyIdOf, newKioskKey, revokeKey } = requireFn('./lib/data/kioskKeys.js');
const { upsertReward } = requireFn('./lib/data/rewards.js');

const KIOSKS = 50;
const USERS = 1000;
const AUTH_USERS = 16;
/** Each signed-in user's history: a page (20) and the start of the next. */
const HISTORY_ENTRIES = 25;
/** Each history entry's points: a balance (25,000) that a run's redemptions of 1 point never use up. */
const HISTORY_ENTRY_POINTS = 1000;
/** Kiosk i's opening hours: SCHEDULES[i % SCHEDULES.length]. */
export const SCHEDULES = ['24/7', 'Mo-Fr 06:00-22:00; Sa 08:00-20:00', 'Mo-Su 07:00-23:00'];

const kioskDoc = (/** @type {number} */ i, /** @type {Record<string, unknown>} */ fields = {}) =>
  fleetKioskDoc(i, {
    name: `Bench kiosk ${i}`,
    address: `Bench street ${i}`,
    openingHours: SCHEDULES[i % SCHEDULES.length],
    ...fields,
  });

/**
 * A project of its own in the same Firestore emulator holding `users` users (every
 * other one with a push token) and the bench's kiosks with keys: one data size of
 * the throughput section, which can then be measured in turn with the others.
 * @param {string} projectId
 * @param {number} users
 * @param {string} runId
 */
export async function seedDataSize(projectId, users, runId) {
  const firestore = projectFirestore(projectId);
  await firestore.doc('config/rewards').set({ dailyPointsCap: 100_000_000 });
  const kiosks = Array.from({ length: KIOSKS }, (_, i) => ({
    id: `bench-kiosk-${i}`,
    apiKey: `${runId}-${projectId}-key-${i}`,
  }));
  await writeAll(
    kiosks.flatMap(({ id, apiKey }, i) => [
      [firestore.collection('kiosks').doc(id), kioskDoc(i)],
      [firestore.collection('kioskKeys').doc(keyIdOf(apiKey)), newKioskKey(id, 'bench throughput')],
    ]),
    firestore,
  );
  const userDocs = Array.from({ length: users }, (_, i) => [
    firestore.collection('users').doc(`tp-user-${i}`),
    fleetUserDoc(`Throughput user ${i}`, i % 2 ? undefined : `tp-device-${i}`),
  ]);
  await writeAll(userDocs, firestore);
  return { projectId, users, kiosks };
}

/** Kiosks with keys, users (every other one with a push token), signed-in users and an admin. */
export async function seed() {
  // The daily cap would refuse a busy user's awards; this run measures speed, not the cap.
  await db().doc('config/rewards').set({ dailyPointsCap: 100_000_000 });
  const kioskRefs = Array.from({ length: KIOSKS }, (_, i) => db().collection('kiosks').doc(`bench-kiosk-${i}`));
  await writeAll(kioskRefs.map((ref, i) => [ref, kioskDoc(i)]));
  const users = Array.from({ length: USERS }, (_, i) => `bench-user-${i}`);
  await writeAll(
    users.map((id, i) => [
      db().collection('users').doc(id),
      fleetUserDoc(`Bench user ${i}`, i % 2 === 0 ? `bench-device-${i}` : undefined),
    ]),
  );
  const authUsers = Array.from({ length: AUTH_USERS }, (_, i) => `bench-auth-${i}`);
  await writeAll(
    authUsers.flatMap((userId, i) =>
      fleetUserWithHistory(db(), {
        userId,
        name: `Signed-in user ${i}`,
        entries: HISTORY_ENTRIES,
        kioskId: kioskRefs[0].id,
        points: HISTORY_ENTRY_POINTS,
      }),
    ),
  );
  for (const reward of BENCH_REWARDS) await upsertReward(reward);

  /** @type {{ id: string, apiKey: string, keyId: string }[]} */
  const kiosks = [];
  for (const ref of kioskRefs) kiosks.push({ id: ref.id, ...(await issueKey(ref.id, 'bench')) });
  // A revoked key per kiosk: DELETE of an already revoked key answers 200 and writes nothing.
  /** @type {{ kioskId: string, keyId: string }[]} */
  const revoked = [];
  for (const { id } of kiosks.slice(0, AUTH_USERS)) {
    const { keyId } = await issueKey(id, 'bench revoked');
    await revokeKey(id, keyId);
    revoked.push({ kioskId: id, keyId });
  }
  /** @type {string[]} */
  const tokens = [];
  for (const uid of authUsers) tokens.push(await idTokenFor(uid));
  const adminToken = await idTokenFor('bench-admin', { admin: true });
  return { kiosks, users, authUsers, tokens, adminToken, revoked };
}
