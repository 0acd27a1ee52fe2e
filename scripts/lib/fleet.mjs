// What the load test and the bench seed: kiosks on a grid of sites half a degree
// apart in south-west Germany, in Europe/Berlin, and new users; and the batched
// writes that store them.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from './paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');
const { GeoPoint, Timestamp } = requireFn('firebase-admin/firestore');
const { geohashForLocation } = requireFn('geofire-common');

/** The kiosks/{id} document of kiosk number `i` of a seeded fleet, with `fields` on top. */
export function fleetKioskDoc(i, fields) {
  const latitude = 48 + (i % 10) * 0.5;
  const longitude = 8 + Math.floor(i / 10) * 0.5;
  return {
    status: 'available',
    plasticCount: 0,
    metalCount: 0,
    lastUpdated: Timestamp.now(),
    location: new GeoPoint(latitude, longitude),
    geohash: geohashForLocation([latitude, longitude]),
    timezone: 'Europe/Berlin',
    ...fields,
  };
}

/** The users/{id} document of a new user called `name`, with `pushToken` if given. */
export const fleetUserDoc = (name, pushToken) => ({
  name,
  currentPoints: 0,
  totalPoints: 0,
  recycledCount: 0,
  rank: 'Bronze',
  createdAt: Timestamp.now(),
  ...(pushToken ? { pushToken } : {}),
});

/** Writes `docs` ([ref, data]) in batches of 400. */
export async function writeAll(docs, firestore = db()) {
  for (let i = 0; i < docs.length; i += 400) {
    const batch = firestore.batch();
    for (const [ref, data] of docs.slice(i, i + 400)) batch.set(ref, data);
    await batch.commit();
  }
}
