// @ts-check
// BENCHMARKS.md's section 4b (kiosks near a point as the fleet grows elsewhere) and
// its target, from sections/nearby.mjs's figures.
import { fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';

/** @typedef {import('./run.mjs').Results} Results */

/** The search's p50 with the largest fleet is at most this many times its p50 with the smallest. */
export const NEARBY_FLAT_TARGET = 1.2;

const sized = (/** @type {number} */ kiosks) => kiosks.toLocaleString('en-US');

/**
 * What the emulator's own range queries did across the sizes (none in figures from before the floor was timed).
 * @param {Results['nearby']} nearby
 */
const floorNote = (nearby) =>
  nearby.floorRatio === undefined
    ? ''
    : `; the same range queries done directly ${fmtRatio(nearby.floorRatio)}× (the emulator scans the collection)`;

/**
 * The search's target: flat as the fleet grows elsewhere.
 * @param {Results} results
 */
export function nearbyTargets({ nearby }) {
  const [smallest, largest] = [nearby.rows[0], nearby.rows[nearby.rows.length - 1]];
  return [
    {
      name: `Kiosks near a point flat as the fleet grows elsewhere: p50 with ${sized(largest.fleet)} kiosks elsewhere ≤ ${NEARBY_FLAT_TARGET}× p50 with ${sized(smallest.fleet)}`,
      measured: `${fmtRatio(nearby.ratio)}× (${fmtMs(largest.p50)} vs ${fmtMs(smallest.p50)} ms); documents read per search ${nearby.rows.map((row) => row.documentsRead).join(' vs ')}${floorNote(nearby)}`,
      // Judged as printed (two decimals), like the other ratios.
      met: Number.isFinite(nearby.ratio) && Math.round(nearby.ratio * 100) / 100 <= NEARBY_FLAT_TARGET,
    },
  ];
}

/**
 * The section's text and table.
 * @param {Results} results
 */
export function nearbyParts({ nearby }) {
  return [
    '## 4b. Kiosks near a point as the fleet grows',
    '',
    `\`GET ${nearby.path}\` (the default radius, ${nearby.radiusKm} km) on a warm instance per fleet size. Each size is a project of its own in the same Firestore emulator holding the same neighbourhood (${nearby.rows[0].near} kiosks 0.2–4.5 km from Berlin Alexanderplatz) and that many kiosks elsewhere in Europe (at least 100 km away), written by the service's builder in batches of 500. The sizes are measured in turn, ${nearby.rounds} rounds of ${nearby.requests} sequential requests each (c=1), the order rotating from round to round, so that whatever else the machine does hits every size alike; percentiles are over all of a size's requests. "Documents read" is what the search's geohash range queries return in that project, counted directly with the Admin SDK: a search reads the kiosks stored in the cells around the point, however many there are elsewhere.`,
    '',
    table(
      [
        'Kiosks elsewhere',
        'Kiosks found',
        'Documents read',
        'Range queries',
        'p50, ms',
        'p95, ms',
        'Firestore floor p50, ms',
        'p50 above the floor, ms',
        'Failed',
      ],
      nearby.rows.map((row) => [
        sized(row.fleet),
        `${row.found} of ${row.near}`,
        row.documentsRead,
        row.ranges,
        fmtMs(row.p50),
        fmtMs(row.p95),
        fmtMs(row.floorP50),
        fmtMs(row.p50 - row.floorP50),
        row.failed,
      ]),
    ),
    '',
    `p50 with the largest fleet ÷ p50 with the smallest: ${fmtRatio(nearby.ratio)} (target ≤ ${NEARBY_FLAT_TARGET}). The Firestore floor is the search's range queries done directly with the Admin SDK in the same project, timed in the same rotation: ${fmtRatio(nearby.floorRatio)}× from the smallest fleet to the largest, although they return the same ${nearby.rows[0].documentsRead} documents. The Firestore emulator answers a range query by scanning the whole collection (about 8 µs a document on this machine), so on the emulator every query's time grows with the collection, whatever it returns; deployed Firestore reads the index range alone, and bills and times a query by what it returns. On the emulator this target therefore cannot be met by any search, and the table shows what can be measured: the documents read (${nearby.rows.map((row) => row.documentsRead).join(' vs ')}) and the search's time above its floor (${nearby.rows.map((row) => `${fmtMs(row.p50 - row.floorP50)} ms`).join(' vs ')}). The endpoint against its floor at one size is the row \`GET /kiosks?near=\` of section 2.`,
    '',
  ];
}
