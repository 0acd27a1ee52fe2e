// @ts-check
// The search of section 2's row `GET /kiosks?near=` and its Firestore floor: around a
// kiosk of seed.mjs's grid (50°N 9°E), within 40 km, which holds it and its two
// neighbours east and west; the floor runs the same geohash range queries side by
// side. The ranges are the service's (computed once here, outside any timing).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');
const { geohashRanges } = requireFn('./lib/domain/geohashCover.js');

const CENTER = { latitude: 50, longitude: 9 };
const RADIUS_KM = 40;
/** @type {[string, string][]} */
const ranges = geohashRanges(CENTER, RADIUS_KM);

export const nearbyPath = `/kiosks?near=${CENTER.latitude},${CENTER.longitude}&radiusKm=${RADIUS_KM}`;

/** The kiosks the search's range queries hold, read. */
export const nearbyFloor = async () =>
  (
    await Promise.all(
      ranges.map(([start, end]) =>
        db().collection('kiosks').where('geohash', '>=', start).where('geohash', '<', end).get(),
      ),
    )
  ).flatMap((/** @type {any} */ read) => read.docs.map((/** @type {any} */ doc) => doc.data()));
