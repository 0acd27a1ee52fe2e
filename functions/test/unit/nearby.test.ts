/**
 * "Kiosks near me" as plain functions: the query parameters (contract §9 bounds, a
 * 400 naming the parameter), the distance as answered, and the query plan, i.e. the
 * geohash ranges read for a point: every point of the circle lies in one of them
 * (checked by property, and at the antimeridian and the poles, where a geohash box
 * wraps or degenerates), and they stay near the point.
 */
import fc from 'fast-check';
import { distanceBetween, geohashForLocation, geohashQueryBounds } from 'geofire-common';
import { MAX_RANGES, boxAround, geohashRanges, type GeohashRange } from '../../src/domain/geohashCover';
import { nearbySearchOf, roundKm } from '../../src/domain/nearby';
import { pointAt, type LatLng } from '../harness/geo';
import { apiErrorOf } from './api-error';

const BERLIN = { latitude: 52.521918, longitude: 13.413215 };
const at = (latitude: number, longitude: number): LatLng => ({ latitude, longitude });
const inRanges = (ranges: readonly GeohashRange[], point: LatLng) => {
  const geohash = geohashForLocation([point.latitude, point.longitude]);
  return ranges.some(([start, end]) => geohash >= start && geohash < end);
};
const km = (a: LatLng, b: LatLng) => distanceBetween([a.latitude, a.longitude], [b.latitude, b.longitude]);

describe('nearbySearchOf: the query parameters', () => {
  test('without near: the plain list', () => {
    expect(nearbySearchOf({})).toBeUndefined();
    expect(nearbySearchOf({ status: 'available' })).toBeUndefined();
  });

  test('near alone: 5 km, 50 kiosks', () => {
    expect(nearbySearchOf({ near: '52.5219,13.4132' })).toEqual({
      center: at(52.5219, 13.4132),
      radiusKm: 5,
      limit: 50,
    });
  });

  test.each([
    ['-33.8688,151.2093', at(-33.8688, 151.2093)],
    ['90,180', at(90, 180)],
    ['-90,-180', at(-90, -180)],
    ['0,0', at(0, 0)],
    ['+1.5,-.5', at(1.5, -0.5)],
    ['1e-7,2E1', at(1e-7, 20)],
    ['52.,13', at(52, 13)],
  ])('near=%s', (near, center) => {
    expect(nearbySearchOf({ near })?.center).toEqual(center);
  });

  test.each([
    ['radiusKm', '0.1', 0.1],
    ['radiusKm', '50', 50],
    ['radiusKm', '2.5', 2.5],
    ['limit', '1', 1],
    ['limit', '100', 100],
    ['limit', '007', 7],
  ] as const)('%s=%s', (name, value, expected) => {
    expect(nearbySearchOf({ near: '0,0', [name]: value })?.[name]).toBe(expected);
  });

  const FORM = 'near must be latitude,longitude in decimal degrees, e.g. near=52.5219,13.4132';
  const LATITUDE = 'near: the latitude must be from -90 to 90';
  const LONGITUDE = 'near: the longitude must be from -180 to 180';
  const RADIUS = 'radiusKm must be a number of kilometres from 0.1 to 50';
  const LIMIT = 'limit must be an integer from 1 to 100';
  const aroundNothing = (name: string) =>
    `${name} needs near=<latitude>,<longitude>: it only applies to a search around a point`;
  /** One 400 row a value: `name` set to each value, after the other parameters of `around`. */
  const refused = (message: string, name: string, values: string[], around = {}): [Record<string, string>, string][] =>
    values.map((value) => [{ ...around, [name]: value }, message]);
  test.each([
    ...refused(FORM, 'near', ['', '52.52', '52.52,13.41,0', '52.52;13.41', '52.52, 13.41', 'abc,def']),
    ...refused(FORM, 'near', ['0x10,0', 'NaN,0', 'Infinity,0', ',']),
    ...refused(LATITUDE, 'near', ['90.0001,0', '-91,0', '1e999,0']),
    ...refused(LONGITUDE, 'near', ['0,180.5', '0,-181']),
    ...refused(RADIUS, 'radiusKm', ['0.09', '50.01', '', '5km', '-5'], { near: '0,0' }),
    ...refused(LIMIT, 'limit', ['0', '101', '2.5', '-1', ''], { near: '0,0' }),
    ...refused(aroundNothing('radiusKm'), 'radiusKm', ['5']),
    ...refused(aroundNothing('limit'), 'limit', ['5']),
  ])('%p: 400 %s', (query, message) => {
    const error = apiErrorOf(() => nearbySearchOf(query));
    expect([error.status, error.code, error.message]).toEqual([400, 'invalid-argument', message]);
  });
});

describe('roundKm: the distance as answered', () => {
  test.each([
    [0, 0],
    [0.004, 0],
    [0.005, 0.01],
    [3.14159, 3.14],
    [4.996, 5],
    [49.999, 50],
  ])('%p km → %p', (distance, shown) => {
    expect(roundKm(distance)).toBe(shown);
  });
});

describe('the query plan: geohash ranges around a point', () => {
  /** Points of the circle: on its edge all around, and inside. */
  function pointsOf(center: LatLng, radiusKm: number): LatLng[] {
    const points: LatLng[] = [];
    for (let bearing = 0; bearing < 360; bearing += 3) {
      for (const share of [0.999999, 0.9, 0.5, 0.1]) points.push(pointAt(center, radiusKm * share, bearing));
    }
    return points.filter((point) => km(center, point) <= radiusKm);
  }
  const missed = (center: LatLng, radiusKm: number) => {
    const ranges = geohashRanges(center, radiusKm);
    return pointsOf(center, radiusKm).filter((point) => !inRanges(ranges, point));
  };

  /** Any centre on the globe, any radius the endpoint takes. */
  const anyCircle = [
    fc.double({ min: -90, max: 90, noNaN: true }),
    fc.double({ min: -180, max: 180, noNaN: true }),
    fc.double({ min: 0.1, max: 50, noNaN: true }),
  ] as const;

  test('every point of the circle lies in a range (random circles, any latitude)', () => {
    fc.assert(
      fc.property(...anyCircle, (latitude, longitude, radiusKm) => {
        expect(missed(at(latitude, longitude), radiusKm)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  test('at most MAX_RANGES ranges, sorted, disjoint, each non-empty', () => {
    fc.assert(
      fc.property(...anyCircle, (latitude, longitude, radiusKm) => {
        const ranges = geohashRanges(at(latitude, longitude), radiusKm);
        expect(ranges.length).toBeGreaterThan(0);
        expect(ranges.length).toBeLessThanOrEqual(MAX_RANGES);
        ranges.forEach(([start, end], i) => {
          expect(start < end).toBe(true);
          if (i > 0) expect(ranges[i - 1][1] <= start).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });

  test('around Berlin Alexanderplatz (5 km) it reads a few cells of u33, not Munich or Amsterdam', () => {
    const ranges = geohashRanges(BERLIN, 5);
    expect(ranges.every(([start, end]) => start.startsWith('u33') && end.startsWith('u33'))).toBe(true);
    expect(inRanges(ranges, at(48.137154, 11.575382))).toBe(false);
    expect(inRanges(ranges, at(52.378901, 4.900581))).toBe(false);
    expect(inRanges(ranges, pointAt(BERLIN, 4.99, 45))).toBe(true);
  });

  test('the antimeridian: from 179.9 it reads the cells east of it, at -179.9', () => {
    for (const latitude of [0, 45, -60]) {
      const center = at(latitude, 179.9);
      const across = at(latitude, -179.9);
      expect(km(center, across)).toBeLessThan(25);
      expect(inRanges(geohashRanges(center, 25), across)).toBe(true);
      expect(inRanges(geohashRanges(across, 25), center)).toBe(true);
      expect(boxAround(center, 25).longitudes).toHaveLength(2);
    }
    expect(missed(at(0, 180), 50)).toEqual([]);
    expect(missed(at(0, -180), 50)).toEqual([]);
    expect(missed(at(-16.5, 179.99), 0.1)).toEqual([]);
  });

  test('the poles: from 89.9 it reads every longitude around the pole, and only the polar cap', () => {
    for (const longitude of [0, 120, -45, 180]) {
      const center = at(89.9, longitude);
      const ranges = geohashRanges(center, 50);
      for (const other of [0, 90, 180, -90, -179.9]) expect(inRanges(ranges, at(89.9, other))).toBe(true);
      expect(inRanges(ranges, at(90, 0))).toBe(true);
      expect(boxAround(center, 50)).toEqual({ south: expect.closeTo(89.45, 2), north: 90, longitudes: [[-180, 180]] });
      // Not Berlin, nor anything south of the Arctic circle.
      expect(inRanges(ranges, BERLIN)).toBe(false);
      expect(inRanges(ranges, at(66, longitude))).toBe(false);
      expect(missed(center, 50)).toEqual([]);
    }
    expect(missed(at(-89.9, -45), 10)).toEqual([]);
    expect(missed(at(90, 0), 0.1)).toEqual([]);
    expect(missed(at(-90, 0), 50)).toEqual([]);
    expect(missed(at(89.6, 10), 50)).toEqual([]);
  });

  test('why not geofire-common’s geohashQueryBounds: from 89.9 it misses the kiosks across the pole', () => {
    const center = at(89.9, 0);
    const across = at(89.9, 180);
    expect(km(center, across)).toBeLessThan(25);
    const geofire = geohashQueryBounds([center.latitude, center.longitude], 50_000) as GeohashRange[];
    expect(geofire.some(([start, end]) => inRanges([[start, `${end}~`]], across))).toBe(false);
    expect(inRanges(geohashRanges(center, 50), across)).toBe(true);
  });
});
