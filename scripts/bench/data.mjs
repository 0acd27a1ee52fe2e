// The bench's data, and per endpoint its n-th request: ids spread over n, so that concurrent requests touch different
// documents.
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { db, fleetKioskDoc, fleetUserDoc, fleetUserWithHistory, writeAll } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { functionEnv, inSequence } from './host.mjs';

const { issueKey, keyIdOf, newKioskKey, revokeKey } = requireFunctions('./lib/data/kioskKeys.js');
const { upsertReward } = requireFunctions('./lib/data/rewards.js');
const { partnerKeys, upsertPartner } = requireFunctions('./lib/data/partners.js');
const { redeemReward } = requireFunctions('./lib/services/redemptions.js');

const KIOSKS = 50;
const USERS = 1000;
const AUTH_USERS = 16;
/** Each signed-in user's history: a page (20) and more, each entry worth enough for every redemption of a run. */
const HISTORY = { entries: 25, points: 1000 };
const SCHEDULES = ['24/7', 'Mo-Fr 06:00-22:00; Sa 08:00-20:00', 'Mo-Su 07:00-23:00'];
const REWARDS = [
  { id: 'bench-donation', name: 'Bench donation', cost: 1, kind: 'donation', stock: null },
  { id: 'bench-coffee', name: 'Bench coffee', cost: 150, kind: 'voucher', stock: 500 },
  { id: 'bench-retired', name: 'Bench retired', cost: 100, kind: 'voucher', stock: 0, active: false },
];
const PARTNER = { id: 'bench-cafe', name: 'Bench café' };
const CAFE_COFFEE = { id: 'bench-cafe-coffee', name: 'Bench café coffee', cost: 150, kind: 'voucher', validDays: 90 };
const REDEEM = { rewardId: REWARDS[0].id };
const ADMIN_KIOSK = {
  name: 'Admin kiosk',
  address: 'Hachmannplatz 16, Hamburg',
  location: { latitude: 53.553, longitude: 10.0067 },
  openingHours: 'Mo-Su 06:00-23:00',
  timezone: 'Europe/Berlin',
};

/** A project for a section's `size`: its id, its Firestore (an app of its own), and an api instance's start options. */
export function sizeProject(/** @type {string} */ size, /** @type {Record<string, string>} */ env = {}) {
  const projectId = `${process.env.GCLOUD_PROJECT}-${size}`;
  const app = requireFunctions('firebase-admin/app').initializeApp({ projectId }, projectId);
  /** @type {import('firebase-admin/firestore').Firestore} */
  const firestore = requireFunctions('firebase-admin/firestore').getFirestore(app);
  return { projectId, firestore, instance: { env: functionEnv({ ...env, GCLOUD_PROJECT: projectId }) } };
}

/** @param {import('firebase-admin/firestore').Firestore} firestore @param {number} userCount @param {string} keyPrefix */
export async function seedFleet(firestore, userCount, keyPrefix) {
  // The daily cap would refuse a busy user's awards; the bench measures speed, not the cap.
  await firestore.doc('config/rewards').set({ dailyPointsCap: 100_000_000 });
  const kiosks = Array.from({ length: KIOSKS }, (_, i) => ({ id: `bench-kiosk-${i}`, apiKey: `${keyPrefix}-${i}` }));
  const users = Array.from({ length: userCount }, (_, i) => `bench-user-${i}`);
  const kioskDoc = (/** @type {number} */ i) =>
    fleetKioskDoc(i, { name: `Bench kiosk ${i}`, address: `Bench street ${i}`, openingHours: SCHEDULES[i % 3] });
  const docs = [
    ...kiosks.flatMap(({ id, apiKey }, i) => [
      [firestore.collection('kiosks').doc(id), kioskDoc(i)],
      [firestore.collection('kioskKeys').doc(keyIdOf(apiKey)), newKioskKey(id, 'bench')],
    ]),
    ...users.map((id, i) => [
      firestore.collection('users').doc(id),
      fleetUserDoc(id, i % 2 ? undefined : `device-${i}`),
    ]),
  ];
  await writeAll(docs, firestore);
  return { kiosks, users };
}

export async function seed(/** @type {string} */ runId, /** @type {number} */ vouchers) {
  const { kiosks, users } = await seedFleet(db(), USERS, runId);
  const authUsers = Array.from({ length: AUTH_USERS }, (_, i) => `bench-auth-${i}`);
  const kioskId = kiosks[0].id;
  const docs = authUsers.flatMap((userId) => fleetUserWithHistory(db(), { userId, name: userId, kioskId, ...HISTORY }));
  await writeAll(docs);
  for (const reward of REWARDS) await upsertReward(reward);
  // Revoked keys, by their paths: DELETE of an already revoked key answers 200 and writes nothing.
  const revoked = await inSequence(kiosks.slice(0, AUTH_USERS), async ({ id }) => {
    const { keyId } = await issueKey(id, 'bench revoked');
    await revokeKey(id, keyId);
    return `/admin/kiosks/${id}/keys/${keyId}`;
  });
  const tokens = await inSequence(authUsers, (uid) => idTokenFor(uid));
  const adminToken = await idTokenFor('bench-admin', { admin: true });
  // The partner, its key and the vouchers of its reward, redeemed by the signed-in users through the service's own
  // redeemReward: each user's in turn (a redemption guards its user's balance), the users side by side.
  await upsertPartner(PARTNER.id, PARTNER.name);
  await upsertReward({ ...CAFE_COFFEE, partnerId: PARTNER.id });
  // The bench's output is its progress, not a log line per voucher.
  requireFunctions('./lib/log.js').sendLogsTo(() => {});
  const byUser = authUsers.map(async (userId, first) => {
    const codes = [];
    for (let i = first; i < vouchers; i += authUsers.length)
      codes.push((await redeemReward(userId, CAFE_COFFEE.id, `${runId}-voucher-${i}`)).redemption.code);
    return codes;
  });
  const { apiKey: partnerKey } = await partnerKeys.issueKey(PARTNER.id, 'bench till');
  const codes = /** @type {string[]} */ ((await Promise.all(byUser)).flat());
  return { kiosks, users, authUsers, tokens, revoked, adminToken, partnerKey, codes };
}

/** @typedef {Awaited<ReturnType<typeof seed>> & { runId: string }} Data */

/** Every endpoint the bench times, with its n-th request (the method is the name's). @param {Data} data */
export function endpoints({ kiosks, users, authUsers, tokens, revoked, partnerKey, codes, adminToken, runId }) {
  const kiosk = (/** @type {number} */ n) => kiosks[n % kiosks.length];
  const key = (/** @type {number} */ n) => ({ 'x-api-key': kiosk(n).apiKey });
  const uid = (/** @type {number} */ n) => authUsers[n % AUTH_USERS];
  const user = (/** @type {number} */ n) => `/user/${uid(n)}`;
  const auth = (/** @type {number} */ n) => ({ authorization: `Bearer ${tokens[n % AUTH_USERS]}` });
  const admin = { authorization: `Bearer ${adminToken}` };
  const partner = { 'x-api-key': partnerKey };
  const once = (/** @type {number} */ n, /** @type {string} */ what) => ({
    'idempotency-key': `${runId}-${what}-${n}`,
  });
  const deposit = (/** @type {number} */ n) => {
    const counts = { plasticCount: 1 + (n % 5), metalCount: n % 3 };
    return { kioskId: kiosk(n).id, userId: users[n % users.length], ...counts };
  };
  const batch = (/** @type {number} */ n) => ({
    transactions: [{ ...deposit(n), idempotencyKey: `${runId}-batch-${n}` }],
  });
  const newKiosk = (/** @type {number} */ n) => ({ id: `bench-admin-kiosk-${n % AUTH_USERS}`, ...ADMIN_KIOSK });
  const notice = { topic: 'offers_updates', title: 'Double points', body: 'All weekend', data: { type: 'offer' } };
  const adjustment = (/** @type {number} */ n) => ({ points: n % 2 ? -1 : 1, reason: 'Bench' });
  const message = (/** @type {number} */ n) => ({ userId: users[(2 * n) % users.length], title: 'Hi', body: 'Thanks' });
  const otp = (/** @type {number} */ n) => ({ email: `bench-${runId}-${n}@example.com`, otp: '482913' });
  // A distinct client per request: many users, not one hot limiter document.
  const client = (/** @type {number} */ n) => ({
    'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
  // A use consumes its voucher: each use takes the next unused one (n counts every endpoint's requests).
  let uses = 0;
  /** @typedef {(n: number) => [string, Record<string, string>?, unknown?]} Build */
  /** @type {[string, Build, Build?][]} The name, the n-th request and, for a few, their data floor's (floor.js). */
  const list = [
    ['GET /openapi.json', () => ['/openapi.json']],
    ['GET /kiosk/{id}', (n) => [`/kiosk/${kiosk(n).id}`], (n) => [`/doc?path=kiosks/${kiosk(n).id}`]],
    ['GET /kiosks', () => ['/kiosks'], () => ['/query?collection=kiosks']],
    ['GET /kiosks?near=', () => ['/kiosks?near=50,9&radiusKm=40']],
    ['GET /user/{id}', (n) => [user(n), auth(n)], (n) => [`/doc?path=users/${uid(n)}&path=config/rewards`, auth(n)]],
    ['GET /user/{id}/history', (n) => [`${user(n)}/history`, auth(n)]],
    ['GET /rewards', () => ['/rewards'], () => ['/query?collection=rewards&active&orderBy=cost']],
    ['POST /admin/users/{id}/adjustments', (n) => [`/admin/users/${uid(n)}/adjustments`, admin, adjustment(n)]],
    ['POST /user/{id}/redemptions', (n) => [`${user(n)}/redemptions`, { ...auth(n), ...once(n, 'red') }, REDEEM]],
    ['POST /kiosk/{id}/status', (n) => [`/kiosk/${kiosk(n).id}/status`, key(n), { status: 'available' }]],
    ['POST /kiosk/transaction', (n) => ['/kiosk/transaction', { ...key(n), ...once(n, 'tx') }, deposit(n)]],
    ['POST /kiosk/transactions/batch', (n) => ['/kiosk/transactions/batch', key(n), batch(n)]],
    ['PUT /user/{id}/push-token', (n) => [`${user(n)}/push-token`, auth(n), { token: `bench-token-${runId}-${n}` }]],
    ['DELETE /user/{id}/push-token', (n) => [`${user(n)}/push-token`, auth(n)]],
    ['POST /notify/topic', () => ['/notify/topic', admin, notice]],
    ['POST /notify/user', (n) => ['/notify/user', admin, message(n)]],
    ['POST /admin/kiosks', (n) => ['/admin/kiosks', admin, newKiosk(n)]],
    ['POST /admin/kiosks/{id}/keys', (n) => [`/admin/kiosks/${kiosk(n).id}/keys`, admin, { label: 'bench' }]],
    ['DELETE /admin/kiosks/{id}/keys/{keyId}', (n) => [revoked[n % AUTH_USERS], admin]],
    ['GET /partner/vouchers/{code}', (n) => [`/partner/vouchers/${codes[n % codes.length]}`, partner]],
    // One seeded voucher per use the bench sends; a use past them would be 409 and counted as failed.
    [
      'POST /partner/vouchers/{code}/use',
      () => [`/partner/vouchers/${codes[uses % codes.length]}/use`, { ...partner, ...once(uses++, 'use') }],
    ],
    ['POST /send-otp-email', (n) => ['/send-otp-email', client(n), otp(n)]],
  ];
  const requestOf = (/** @type {string} */ method, /** @type {Build} */ build) => (/** @type {number} */ n) => {
    const [path, headers = {}, body] = build(n);
    return { method, path, headers, body };
  };
  return list.map(([name, build, dataFloor]) => ({
    name,
    request: requestOf(name.split(' ')[0], build),
    dataFloor: dataFloor && requestOf('GET', dataFloor),
  }));
}
/** @typedef {ReturnType<typeof endpoints>[number]} Endpoint */
