// @ts-check
// What the bench calls: per endpoint the request plus its Firestore floor, i.e. the
// same reads and writes done directly with the Admin SDK (what the endpoint cannot
// do with less), on the data of seed.mjs.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';
import { adminEndpointSpecs } from './admin-endpoints.mjs';
import { awardWorkFloor, batchFloor, kioskKeyFloor } from './award-floor.mjs';
import { historyFloor } from './history-floor.mjs';
import { nearbyFloor, nearbyPath } from './nearby-floor.mjs';
import { rewardEndpointSpecs } from './reward-endpoints.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db, adminApp } = requireFn('./lib/adapters/firestore.js');
const { sha256Hex } = requireFn('./lib/domain/hash.js');
const { FieldValue, Timestamp } = requireFn('firebase-admin/firestore');
const { getAuth } = requireFn('firebase-admin/auth');

export { db, requireFn };

/** @type {Record<string, unknown> | undefined} */
let apiDocument;
const openApiDocument = () => (apiDocument ??= requireFn('./lib/http/apiDescription/openapi.js').openApiDocument());

/**
 * @typedef {{ method: string, path: string, headers?: Record<string, string>, body?: unknown }} BenchRequest
 * @typedef {{ name: string, request: (w: number, g: number) => BenchRequest, floorLabel: string, floor: (w: number, g: number) => Promise<unknown>, idToken?: (w: number) => string, emulatorLocks?: boolean, httpFloor?: () => BenchRequest }} EndpointSpec
 * @typedef {Awaited<ReturnType<typeof import('./seed.mjs').seed>> & { runId: string, mailFloor: (mail: Record<string, string>) => Promise<unknown> }} BenchContext
 */

/**
 * The SMTP part of the OTP floor: the nodemailer settings the service uses (one transporter per instance).
 * @param {number} port
 * @returns {BenchContext['mailFloor']}
 */
export function mailFloorFor(port) {
  const { createTransport } = requireFn('nodemailer');
  const transport = createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 10_000,
  });
  return (mail) => transport.sendMail({ from: 'Kiosk Rewards <no-reply@kiosk-rewards.example>', ...mail });
}

/**
 * The whole Firestore (and Auth-emulator) work of one request of `spec`.
 * @param {EndpointSpec} spec
 * @param {number} w
 * @param {number} g
 */
export async function floorOperation(spec, w, g) {
  if (spec.idToken) await getAuth(adminApp()).verifyIdToken(spec.idToken(w));
  await spec.floor(w, g);
}

/**
 * Every endpoint the bench times. `request(w, g)` builds the g-th request (worker w);
 * `floor(w, g)` does that request's Firestore work directly (reading the data it
 * gets, as any use of it must). `httpFloor()`, for an endpoint whose answer is
 * large, is its HTTP floor instead of GET /: a request to the same-host floor
 * function that answers a body of the same size. `idToken(w)` is the ID token the request carries:
 * the floor verifies it with firebase-admin too (against the Auth emulator that
 * includes an account lookup on every call; deployed, only a signature check).
 * Ids are spread so that concurrent requests touch different documents, for the
 * endpoint and its floor alike.
 * @param {BenchContext} ctx
 * @returns {EndpointSpec[]}
 */
export function endpointSpecs(ctx) {
  const { kiosks, users, authUsers, tokens, runId, mailFloor } = ctx;
  const kioskOf = (/** @type {number} */ w) => kiosks[w % kiosks.length];
  const signedIn = (/** @type {number} */ w) => ({
    uid: authUsers[w % authUsers.length],
    token: tokens[w % tokens.length],
    headers: { authorization: `Bearer ${tokens[w % tokens.length]}` },
  });

  const transactionBody = (/** @type {string} */ kioskId, /** @type {number} */ g) => ({
    kioskId,
    userId: users[g % users.length],
    plasticCount: 1 + (g % 5),
    metalCount: g % 3,
  });

  return [
    {
      name: 'GET /openapi.json',
      request: () => ({ method: 'GET', path: '/openapi.json' }),
      // No Firestore work. An instance builds the document once and serialises it on
      // every answer (res.json); the floor serialises the same document, and the HTTP
      // floor sends a body of its size (GET / sends 50 bytes), so the ratio shows what
      // the route adds around its body.
      floorLabel: 'JSON.stringify of the same document; HTTP floor: a prebuilt body of its size',
      floor: async () => JSON.stringify(openApiDocument()),
      httpFloor: () => ({ method: 'GET', path: `/body?bytes=${Buffer.byteLength(JSON.stringify(openApiDocument()))}` }),
    },
    {
      name: 'GET /kiosk/{id}',
      request: (w, g) => ({ method: 'GET', path: `/kiosk/${kiosks[g % kiosks.length].id}` }),
      floorLabel: 'get kiosk',
      floor: async (w, g) =>
        (
          await db()
            .collection('kiosks')
            .doc(kiosks[g % kiosks.length].id)
            .get()
        ).data(),
    },
    {
      name: 'GET /kiosks',
      request: () => ({ method: 'GET', path: '/kiosks' }),
      floorLabel: 'query all kiosks',
      floor: async () => (await db().collection('kiosks').get()).docs.map((/** @type {any} */ doc) => doc.data()),
    },
    {
      name: 'GET /kiosks?near=',
      request: () => ({ method: 'GET', path: nearbyPath }),
      floorLabel: 'the geohash range queries around the point, side by side',
      floor: nearbyFloor,
    },
    {
      name: 'GET /user/{id}',
      request: (w) => ({ method: 'GET', path: `/user/${signedIn(w).uid}`, headers: signedIn(w).headers }),
      idToken: (w) => signedIn(w).token,
      // The rank is derived under the thresholds configured now: the view reads them too.
      floorLabel: 'getAll(user, config/rewards)',
      floor: async (w) =>
        (await db().getAll(db().collection('users').doc(signedIn(w).uid), db().doc('config/rewards'))).map(
          (/** @type {any} */ snap) => snap.data(),
        ),
    },
    {
      name: 'GET /user/{id}/history',
      request: (w) => ({ method: 'GET', path: `/user/${signedIn(w).uid}/history`, headers: signedIn(w).headers }),
      idToken: (w) => signedIn(w).token,
      floorLabel: 'get user and, at once, query the user’s ledger entries newest first, limit 21',
      floor: (w) => historyFloor(signedIn(w).uid),
    },
    ...rewardEndpointSpecs(ctx, signedIn),
    {
      name: 'POST /kiosk/{id}/status',
      request: (w) => ({
        method: 'POST',
        path: `/kiosk/${kioskOf(w).id}/status`,
        headers: { 'x-api-key': kioskOf(w).apiKey },
        body: { status: 'available' },
      }),
      floorLabel: 'get key; tx(get kiosk, update kiosk)',
      floor: async (w) => {
        const kiosk = kioskOf(w);
        (await db().collection('kioskKeys').doc(kiosk.keyId).get()).data();
        const ref = db().collection('kiosks').doc(kiosk.id);
        await db().runTransaction(async (/** @type {any} */ tx) => {
          (await tx.get(ref)).data();
          tx.update(ref, { status: 'available', lastUpdated: Timestamp.now() });
        });
      },
    },
    {
      name: 'POST /kiosk/transaction',
      request: (w, g) => ({
        method: 'POST',
        path: '/kiosk/transaction',
        headers: { 'x-api-key': kioskOf(w).apiKey, 'idempotency-key': `${runId}-ep-${g}` },
        body: transactionBody(kioskOf(w).id, g),
      }),
      floorLabel: 'get key; get config, kiosk; getAll user, keyed tx, legacy record; commit tx + ledger entry + user',
      floor: async (w, g) => {
        await kioskKeyFloor(kioskOf(w));
        return awardWorkFloor(kioskOf(w), transactionBody(kioskOf(w).id, g), `${runId}-floor-${g}`);
      },
    },
    {
      name: 'POST /kiosk/transactions/batch',
      request: (w, g) => ({
        method: 'POST',
        path: '/kiosk/transactions/batch',
        headers: { 'x-api-key': kioskOf(w).apiKey },
        body: { transactions: [{ ...transactionBody(kioskOf(w).id, g), idempotencyKey: `${runId}-epb-${g}` }] },
      }),
      floorLabel: '1 item: the award floor, and the envelope of results',
      floor: (w, g) =>
        batchFloor(kioskOf(w), [{ ...transactionBody(kioskOf(w).id, g), idempotencyKey: `${runId}-floorb-${g}` }]),
    },
    {
      name: 'PUT /user/{id}/push-token',
      request: (w, g) => ({
        method: 'PUT',
        path: `/user/${signedIn(w).uid}/push-token`,
        headers: signedIn(w).headers,
        body: { token: `bench-token-${runId}-${g}` },
      }),
      // A query inside a transaction: concurrent ones time out on the emulator's locks.
      emulatorLocks: true,
      idToken: (w) => signedIn(w).token,
      floorLabel: 'tx(getAll(user, config/rewards), query token holders, update user)',
      floor: async (w, g) => {
        const ref = db().collection('users').doc(signedIn(w).uid);
        const token = `bench-floor-token-${runId}-${g}`;
        await db().runTransaction(async (/** @type {any} */ tx) => {
          (await tx.getAll(ref, db().doc('config/rewards'))).map((/** @type {any} */ snap) => snap.data());
          (await tx.get(db().collection('users').where('pushToken', '==', token))).docs.map((/** @type {any} */ doc) =>
            doc.data(),
          );
          tx.update(ref, { pushToken: token, pushTokenUpdatedAt: FieldValue.serverTimestamp() });
        });
      },
    },
    {
      name: 'DELETE /user/{id}/push-token',
      request: (w) => ({ method: 'DELETE', path: `/user/${signedIn(w).uid}/push-token`, headers: signedIn(w).headers }),
      idToken: (w) => signedIn(w).token,
      floorLabel: 'tx(getAll(user, config/rewards), update user)',
      floor: async (w) => {
        const ref = db().collection('users').doc(signedIn(w).uid);
        await db().runTransaction(async (/** @type {any} */ tx) => {
          (await tx.getAll(ref, db().doc('config/rewards'))).map((/** @type {any} */ snap) => snap.data());
          tx.update(ref, { pushToken: FieldValue.delete(), pushTokenUpdatedAt: FieldValue.serverTimestamp() });
        });
      },
    },
    ...adminEndpointSpecs(ctx, kioskOf),
    {
      name: 'POST /send-otp-email',
      request: (w, g) => ({
        method: 'POST',
        path: '/send-otp-email',
        // A distinct client and address per request: many users, not one hot limiter document.
        headers: { 'x-forwarded-for': `10.${(g >> 16) & 255}.${(g >> 8) & 255}.${g & 255}` },
        body: { email: `bench-${runId}-${g}@example.com`, otp: '482913' },
      }),
      floorLabel: 'tx(getAll 3 limiter docs, set 3) + SMTP send',
      floor: async (w, g) => {
        // The rateLimits/{id} of each bucket, as src/data/rateLimits.ts names it: sha256Hex(`${scope}:${key}`);
        // the third is one of the global ceiling's shards (src/services/otpEmail.ts), shared as the endpoint's are.
        const refs = [
          sha256Hex(`otp-address:floor-${runId}-${g}@example.com`),
          sha256Hex(`otp-ip:11.${(g >> 16) & 255}.${(g >> 8) & 255}.${g & 255}`),
          sha256Hex(`otp-global:floor-${runId}-shard-${g % 10}`),
        ].map((id) => db().collection('rateLimits').doc(id));
        await db().runTransaction(async (/** @type {any} */ tx) => {
          (await tx.getAll(...refs)).map((/** @type {any} */ snap) => snap.data());
          const now = Date.now();
          for (const ref of refs)
            tx.set(ref, {
              scope: 'otp',
              hits: [{ id: `${g}`, at: now }],
              expireAt: Timestamp.fromMillis(now + 3_600_000),
            });
        });
        await mailFloor({
          to: `floor-${runId}-${g}@example.com`,
          subject: 'Your code',
          text: 'Your code is 482913',
          html: '<p>Your code is <b>482913</b></p>',
        });
      },
    },
  ];
}
