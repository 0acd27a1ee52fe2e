// @ts-check
// The bench's admin endpoints (push notices, kiosks and their keys), each with its
// Firestore floor; endpointSpecs (endpoints.mjs) times them in this order.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');
const { keyIdOf } = requireFn('./lib/data/kioskKeys.js');
const { FieldValue, GeoPoint, Timestamp } = requireFn('firebase-admin/firestore');
const { geohashForLocation } = requireFn('geofire-common');

/**
 * @param {import('./endpoints.mjs').BenchContext} ctx
 * @param {(w: number) => { id: string }} kioskOf the kiosk worker w uses
 * @returns {import('./endpoints.mjs').EndpointSpec[]}
 */
export function adminEndpointSpecs({ users, adminToken, revoked, runId }, kioskOf) {
  const admin = { authorization: `Bearer ${adminToken}` };
  const userWithToken = (/** @type {number} */ g) => users[(2 * g) % users.length];
  return [
    {
      name: 'POST /notify/topic',
      idToken: () => adminToken,
      request: () => ({
        method: 'POST',
        path: '/notify/topic',
        headers: admin,
        body: { topic: 'offers_updates', title: 'Double points', body: 'All weekend', data: { type: 'offer' } },
      }),
      floorLabel: 'create pushOutbox doc',
      floor: () =>
        db()
          .collection('pushOutbox')
          .doc()
          .create({
            message: {
              topic: 'offers_updates',
              notification: { title: 'Double points', body: 'All weekend' },
              data: { type: 'offer' },
            },
            createdAt: FieldValue.serverTimestamp(),
          }),
    },
    {
      name: 'POST /notify/user',
      idToken: () => adminToken,
      request: (w, g) => ({
        method: 'POST',
        path: '/notify/user',
        headers: admin,
        body: { userId: userWithToken(g), title: 'Hi', body: 'Thanks for recycling' },
      }),
      floorLabel: 'get user; create pushOutbox doc; create notification',
      floor: async (w, g) => {
        const userRef = db().collection('users').doc(userWithToken(g));
        const user = await userRef.get();
        user.data();
        await db()
          .collection('pushOutbox')
          .doc()
          .create({
            message: {
              token: user.get('pushToken'),
              notification: { title: 'Hi', body: 'Thanks for recycling' },
              data: {},
            },
            createdAt: FieldValue.serverTimestamp(),
          });
        await userRef.collection('notifications').doc().create({
          type: 'message',
          title: 'Hi',
          body: 'Thanks for recycling',
          data: {},
          read: false,
          createdAt: FieldValue.serverTimestamp(),
        });
      },
    },
    {
      name: 'POST /admin/kiosks',
      idToken: () => adminToken,
      request: (w) => ({
        method: 'POST',
        path: '/admin/kiosks',
        headers: admin,
        body: {
          id: `bench-admin-kiosk-${w}`,
          name: `Admin kiosk ${w}`,
          address: 'Hachmannplatz 16, Hamburg',
          location: { latitude: 53.553, longitude: 10.0067 },
          openingHours: 'Mo-Su 06:00-23:00',
          timezone: 'Europe/Berlin',
        },
      }),
      floorLabel: 'tx(get kiosk, update kiosk)',
      floor: async (w) => {
        const ref = db().collection('kiosks').doc(`bench-floor-kiosk-${w}`);
        await db().runTransaction(async (/** @type {any} */ tx) => {
          const existing = await tx.get(ref);
          existing.data();
          const fields = {
            name: `Floor kiosk ${w}`,
            address: 'Hachmannplatz 16, Hamburg',
            status: 'available',
            lastUpdated: Timestamp.now(),
            location: new GeoPoint(53.553, 10.0067),
            geohash: geohashForLocation([53.553, 10.0067]),
            openingHours: 'Mo-Su 06:00-23:00',
            timezone: 'Europe/Berlin',
          };
          if (existing.exists) tx.update(ref, fields);
          else tx.create(ref, { ...fields, plasticCount: 0, metalCount: 0, createdAt: FieldValue.serverTimestamp() });
        });
      },
    },
    {
      name: 'POST /admin/kiosks/{id}/keys',
      idToken: () => adminToken,
      request: (w) => ({
        method: 'POST',
        path: `/admin/kiosks/${kioskOf(w).id}/keys`,
        headers: admin,
        body: { label: 'bench' },
      }),
      floorLabel: 'get kiosk; create key',
      floor: async (w, g) => {
        (await db().collection('kiosks').doc(kioskOf(w).id).get()).data();
        await db()
          .collection('kioskKeys')
          .doc(keyIdOf(`${runId}-floor-key-${g}`))
          .create({ kioskId: kioskOf(w).id, label: 'bench', createdAt: FieldValue.serverTimestamp(), revokedAt: null });
      },
    },
    {
      name: 'DELETE /admin/kiosks/{id}/keys/{keyId}',
      idToken: () => adminToken,
      request: (w) => ({
        method: 'DELETE',
        path: `/admin/kiosks/${revoked[w % revoked.length].kioskId}/keys/${revoked[w % revoked.length].keyId}`,
        headers: admin,
      }),
      floorLabel: 'tx(get key) (already revoked: no write)',
      floor: async (w) => {
        const ref = db()
          .collection('kioskKeys')
          .doc(revoked[w % revoked.length].keyId);
        await db().runTransaction(async (/** @type {any} */ tx) => {
          (await tx.get(ref)).data();
        });
      },
    },
  ];
}
