// @ts-check
// What the load test and the bench seed: kiosks on a grid of sites half a degree
// apart in south-west Germany, in Europe/Berlin, and new users; and the batched
// writes that store them.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from './paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');
const { newKiosk } = requireFn('./lib/data/kiosks.js');
const { newProfile } = requireFn('./lib/data/users.js');
const { DEFAULT_REWARDS } = requireFn('./lib/domain/rewards.js');

/**
 * The kiosks/{id} document of kiosk number `i` of a seeded fleet, built by the
 * service's own builder from `definition` (name, address, openingHours, status).
 * @param {number} i
 * @param {{ name: string, address: string, openingHours?: string, status?: string }} definition
 */
export function fleetKioskDoc(i, definition) {
  const location = { latitude: 48 + (i % 10) * 0.5, longitude: 8 + Math.floor(i / 10) * 0.5 };
  return newKiosk({ timezone: 'Europe/Berlin', ...definition, location });
}

/**
 * The users/{id} document of a new user called `name`, with `pushToken` if given.
 * @param {string} name
 * @param {string} [pushToken]
 */
export const fleetUserDoc = (name, pushToken) => newProfile({ name, pushToken }, DEFAULT_REWARDS);

/**
 * Writes `docs` ([ref, data]) in batches of 400.
 * @param {any[][]} docs pairs of a DocumentReference and its data
 * @param {import('firebase-admin/firestore').Firestore} [firestore]
 */
export async function writeAll(docs, firestore = db()) {
  for (let i = 0; i < docs.length; i += 400) {
    const batch = firestore.batch();
    for (const [ref, data] of docs.slice(i, i + 400)) batch.set(ref, data);
    await batch.commit();
  }
}
