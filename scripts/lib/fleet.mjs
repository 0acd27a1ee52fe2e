// The kiosks the load test and the bench seed: a grid of sites half a degree apart
// in south-west Germany, in Europe/Berlin.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from './paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
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
