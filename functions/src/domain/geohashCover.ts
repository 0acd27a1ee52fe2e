/**
 * Which geohash ranges hold every point within a distance of a centre: the query plan
 * of "kiosks near me". A kiosk stores the geohash of its location (10 characters,
 * geofire-common's geohashForLocation), so the kiosks of a range [start, end) are one
 * Firestore range query on that field.
 *
 * geofire-common's own geohashQueryBounds is not used: it assumes the circle's
 * bounding box stays on one side of a pole, so from latitude 89.9 it misses the
 * kiosks across the pole, and near a pole it falls back to one-character prefixes
 * (a quarter of the globe); it also sizes the box on the ellipsoid while
 * distanceBetween measures on a sphere, which leaves rare slivers at the edge of the
 * circle uncovered. Here the box is the circle's exact one on the sphere
 * distanceBetween uses, and the ranges are the geohash cells that meet it.
 */
import { BASE32, BITS_PER_CHAR, GEOHASH_PRECISION } from 'geofire-common';
import type { Coordinates } from '../model/requestBodies';

/** geofire-common's distanceBetween measures on a sphere of this radius. */
const EARTH_RADIUS_KM = 6371;
/** The box is widened by this share of the radius, far beyond any rounding error, so no point on the circle falls out. */
const MARGIN = 1e-6;
/** At most this many range queries per search; a coarser level reads more kiosks with fewer queries. */
export const MAX_RANGES = 8;
/**
 * A level with more cells than this is not tried: the border cells of so large a box
 * alone make far more than MAX_RANGES runs (and stopping early only reads more).
 */
const MAX_CELLS = 256;
const MAX_BITS = GEOHASH_PRECISION * BITS_PER_CHAR;

const degrees = (radians: number) => (radians * 180) / Math.PI;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** A latitude band and the longitude intervals (west ≤ east, two when the box crosses the antimeridian). */
export interface Box {
  south: number;
  north: number;
  longitudes: [west: number, east: number][];
}

/** A range of stored geohashes: start ≤ geohash < end. */
export type GeohashRange = [start: string, end: string];

/**
 * The smallest latitude/longitude box holding every point within `radiusKm` of
 * `center` on the sphere: all longitudes once the circle reaches a pole; otherwise
 * the longitudes of the circle's two tangent meridians, split at the antimeridian.
 */
export function boxAround(center: Coordinates, radiusKm: number): Box {
  const angle = (radiusKm / EARTH_RADIUS_KM) * (1 + MARGIN);
  const south = center.latitude - degrees(angle);
  const north = center.latitude + degrees(angle);
  const tangent = Math.sin(angle) / Math.cos(radians(center.latitude));
  if (north >= 90 || south <= -90 || tangent >= 1) {
    return { south: Math.max(south, -90), north: Math.min(north, 90), longitudes: [[-180, 180]] };
  }
  const halfWidth = degrees(Math.asin(tangent));
  const west = center.longitude - halfWidth;
  const east = center.longitude + halfWidth;
  if (west < -180)
    return {
      south,
      north,
      longitudes: [
        [west + 360, 180],
        [-180, east],
      ],
    };
  if (east > 180)
    return {
      south,
      north,
      longitudes: [
        [west, 180],
        [-180, east - 360],
      ],
    };
  return { south, north, longitudes: [[west, east]] };
}

/**
 * The index of the cell holding `value` among `cells` equal cells from `min` over
 * `span` degrees, as geohash encoding assigns it: a value on a border belongs to
 * the lower cell.
 */
const cellOf = (value: number, min: number, span: number, cells: number): number =>
  Math.min(cells - 1, Math.max(0, Math.ceil(((value - min) / span) * cells) - 1));

/** Each byte with its bits spread to every other bit: abc → a0b0c. */
const SPREAD_BYTE = Array.from({ length: 256 }, (_, byte) => {
  let out = 0;
  for (let bit = 0; bit < 8; bit++) out |= ((byte >> bit) & 1) << (2 * bit);
  return out;
});

/** An index of at most 25 bits spread to every other bit (up to 2^50: exact in a double). */
const spread = (index: number): number =>
  SPREAD_BYTE[index & 255] +
  SPREAD_BYTE[(index >>> 8) & 255] * 2 ** 16 +
  SPREAD_BYTE[(index >>> 16) & 255] * 2 ** 32 +
  SPREAD_BYTE[index >>> 24] * 2 ** 48;

/**
 * The number of the geohash cell (lon, lat) at `bits` bits: longitude and latitude
 * bits interleaved, longitude first (so with an odd count a longitude bit is last).
 */
const cellNumber = (lon: number, lat: number, bits: number): number =>
  bits % 2 === 0 ? 2 * spread(lon) + spread(lat) : spread(lon) + 2 * spread(lat);

/** The runs of consecutive cell numbers of the cells meeting `box` at `bits` bits; undefined when there are too many cells. */
function runsAt(box: Box, bits: number): [first: number, last: number][] | undefined {
  const lonCells = 2 ** Math.ceil(bits / 2);
  const latCells = 2 ** Math.floor(bits / 2);
  const [lowLat, highLat] = [box.south, box.north].map((lat) => cellOf(lat, -90, 180, latCells));
  const lonSpans = box.longitudes.map(([west, east]) => [west, east].map((lon) => cellOf(lon, -180, 360, lonCells)));
  const count = (highLat - lowLat + 1) * lonSpans.reduce((sum, [low, high]) => sum + high - low + 1, 0);
  if (count > MAX_CELLS) return undefined;
  const numbers: number[] = [];
  for (const [low, high] of lonSpans) {
    for (let lon = low; lon <= high; lon++) {
      for (let lat = lowLat; lat <= highLat; lat++) numbers.push(cellNumber(lon, lat, bits));
    }
  }
  const runs: [number, number][] = [];
  for (const number of numbers.sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && number <= last[1] + 1) last[1] = number;
    else runs.push([number, number]);
  }
  return runs;
}

/** A cell number at `bits` bits as the geohash prefix it stands for, padded to whole characters ('~' past the last). */
function prefixOf(number: number, bits: number): string {
  const chars = Math.ceil(bits / BITS_PER_CHAR);
  let value = number * 2 ** (chars * BITS_PER_CHAR - bits);
  if (value >= 2 ** (chars * BITS_PER_CHAR)) return '~';
  let prefix = '';
  for (let i = 0; i < chars; i++) {
    prefix = BASE32[value % 32] + prefix;
    value = Math.floor(value / 32);
  }
  return prefix;
}

/**
 * The geohash ranges holding every point within `radiusKm` of `center`: the cells
 * meeting the circle's box at the finest level where they make at most MAX_RANGES
 * runs, each run one range. A cell at least as large as the box meets it in at most
 * 2 × 2 cells per longitude interval (at most 8 with two), so the search starts at
 * the finest such level and refines while the runs stay few (refining never merges
 * runs, so the first level with too many ends it).
 */
export function geohashRanges(center: Coordinates, radiusKm: number): GeohashRange[] {
  const box = boxAround(center, radiusKm);
  const height = box.north - box.south;
  const width = Math.max(...box.longitudes.map(([west, east]) => east - west));
  let bits = 1;
  while (
    bits < MAX_BITS &&
    180 / 2 ** Math.floor((bits + 1) / 2) >= height &&
    360 / 2 ** Math.ceil((bits + 1) / 2) >= width
  )
    bits++;
  let runs = runsAt(box, bits)!;
  while (bits < MAX_BITS) {
    const finer = runsAt(box, bits + 1);
    if (!finer || finer.length > MAX_RANGES) break;
    [bits, runs] = [bits + 1, finer];
  }
  return runs.map(([first, last]) => [prefixOf(first, bits), prefixOf(last + 1, bits)]);
}
