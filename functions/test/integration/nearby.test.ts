/**
 * Kiosks near me (contract §9): GET /kiosks?near=<lat>,<lng>&radiusKm=&status=&limit=
 * on the emulator suite. Kiosks are placed at known great-circle distances
 * (test/harness/geo.ts) to check the order, the distances, the radius's edge, the
 * limit and the status; across the antimeridian and around both poles; every 400
 * names its parameter; and a search reads only the kiosks stored in the geohash
 * ranges around the point: broken kiosk documents far away are never read (never
 * logged), while the plain list reads and logs every one.
 */
import { FieldValue } from 'firebase-admin/firestore';
import { kiosksCollection, listKiosks, newKiosk } from '../../src/data/kiosks';
import { kiosksNear } from '../../src/data/kiosksNearby';
import { pointAt, type LatLng } from '../harness/geo';
import { captureLogs } from './fuzz-server';
import { db, resetEmulators } from './helpers';
import { call, type ApiResult } from './requests';
import { seedKiosk } from './seeds';
import type { KioskStatus } from '../../src/model/vocabulary';

beforeEach(resetEmulators);

const ALEXANDERPLATZ = { latitude: 52.521918, longitude: 13.413215 };
const MUNICH = { latitude: 48.137154, longitude: 11.575382 };
const near = (point: LatLng) => `near=${point.latitude},${point.longitude}`;
const seedAt = (point: LatLng, fields: { id?: string; status?: KioskStatus } = {}) =>
  seedKiosk({ ...fields, latitude: point.latitude, longitude: point.longitude });
const found = (res: ApiResult): [string, number][] =>
  res.body.kiosks.map((kiosk: { id: string; distanceKm: number }) => [kiosk.id, kiosk.distanceKm]);

async function search(query: string): Promise<ApiResult> {
  const res = await call('GET', `/kiosks?${query}`);
  expect(res.status).toBe(200);
  return res;
}

describe('GET /kiosks?near=', () => {
  test('the kiosks within 5 km (the default), nearest first, each its view with distanceKm to 2 decimals', async () => {
    const third = await seedAt(pointAt(ALEXANDERPLATZ, 3.2, 200));
    const first = await seedAt(pointAt(ALEXANDERPLATZ, 0.45, 10));
    const second = await seedAt(pointAt(ALEXANDERPLATZ, 1.754, 95));
    await seedAt(pointAt(ALEXANDERPLATZ, 5.2, 300));
    await seedAt(MUNICH);

    const res = await search(near(ALEXANDERPLATZ));
    expect(found(res)).toEqual([
      [first, 0.45],
      [second, 1.75],
      [third, 3.2],
    ]);
    expect(res.body.kiosks[0]).toMatchObject({ id: first, status: 'available', openNow: expect.any(Boolean) });
    expect(Object.keys(res.body.kiosks[0]).sort()).toEqual(
      [...Object.keys((await call('GET', `/kiosk/${first}`)).body.kiosk), 'distanceKm'].sort(),
    );
    // The plain list is as before: every kiosk, no distances.
    const all = await call('GET', '/kiosks');
    expect(all.body.kiosks).toHaveLength(5);
    expect(all.body.kiosks.some((kiosk: object) => 'distanceKm' in kiosk)).toBe(false);
  });

  test.each([0.1, 5, 50])('radiusKm=%p: a kiosk 1 m inside is found, one 1 m outside is not', async (radiusKm) => {
    const inside: string[] = [];
    for (const bearing of [0, 90, 180, 270]) {
      inside.push(await seedAt(pointAt(ALEXANDERPLATZ, radiusKm - 0.001, bearing + 20)));
      await seedAt(pointAt(ALEXANDERPLATZ, radiusKm + 0.001, bearing + 65));
    }
    const res = await search(`${near(ALEXANDERPLATZ)}&radiusKm=${radiusKm}`);
    expect(
      found(res)
        .map(([id]) => id)
        .sort(),
    ).toEqual(inside.sort());
    expect(found(res).every(([, distanceKm]) => distanceKm <= radiusKm)).toBe(true);
  });

  test('limit: the nearest ones; 50 by default', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) ids.push(await seedAt(pointAt(ALEXANDERPLATZ, i * 0.3, i * 50)));
    expect(found(await search(`${near(ALEXANDERPLATZ)}&limit=3`)).map(([id]) => id)).toEqual(ids.slice(0, 3));
    expect(found(await search(`${near(ALEXANDERPLATZ)}&limit=1`)).map(([id]) => id)).toEqual(ids.slice(0, 1));

    const batch = db().batch();
    for (let i = 0; i < 50; i++) {
      const { latitude, longitude } = pointAt(ALEXANDERPLATZ, 2 + i * 0.05, i * 7);
      batch.set(
        kiosksCollection().doc(`crowd-${i}`),
        newKiosk({ name: 'Crowd', address: 'Berlin', location: { latitude, longitude } }),
      );
    }
    await batch.commit();
    const crowded = found(await search(near(ALEXANDERPLATZ)));
    expect(crowded).toHaveLength(50);
    expect(crowded.slice(0, 6).map(([id]) => id)).toEqual(ids);
    expect(crowded.map(([, distanceKm]) => distanceKm)).toEqual(crowded.map(([, d]) => d).sort((a, b) => a - b));
  });

  test('with status: only the kiosks in that state, still nearest first', async () => {
    const resting = await seedAt(pointAt(ALEXANDERPLATZ, 2, 0), { status: 'maintenance' });
    const open = await seedAt(pointAt(ALEXANDERPLATZ, 0.5, 0));
    const restingNearer = await seedAt(pointAt(ALEXANDERPLATZ, 1, 180), { status: 'maintenance' });
    await seedAt(pointAt(ALEXANDERPLATZ, 1.5, 90), { status: 'offline' });
    await seedAt(pointAt(ALEXANDERPLATZ, 8, 90), { status: 'maintenance' });

    expect(found(await search(`${near(ALEXANDERPLATZ)}&status=maintenance`))).toEqual([
      [restingNearer, 1],
      [resting, 2],
    ]);
    expect(found(await search(`${near(ALEXANDERPLATZ)}&status=available&radiusKm=10`))).toEqual([[open, 0.5]]);
  });

  test('across the antimeridian: from 179.9 it finds the kiosks at -179.9, and back', async () => {
    const west = await seedAt({ latitude: 10, longitude: 179.97 });
    const east = await seedAt({ latitude: 10, longitude: -179.95 });
    await seedAt({ latitude: 10, longitude: 179.5 });
    await seedAt({ latitude: 10, longitude: -179.5 });

    expect(found(await search('near=10,179.9&radiusKm=20'))).toEqual([
      [west, 7.67],
      [east, 16.43],
    ]);
    expect(found(await search('near=10,-179.9&radiusKm=20'))).toEqual([
      [east, 5.48],
      [west, 14.24],
    ]);
    expect(found(await search('near=10,180&radiusKm=20')).map(([id]) => id)).toEqual([west, east]);
  });

  test('around the poles: from 89.9 it finds the kiosks on every side of the pole, and at the pole itself', async () => {
    const same = await seedAt({ latitude: 89.95, longitude: 0 });
    const pole = await seedAt({ latitude: 90, longitude: 0 });
    const across = await seedAt({ latitude: 89.9, longitude: 180 });
    const side = await seedAt({ latitude: 89.8, longitude: -90 });
    await seedAt({ latitude: 89.4, longitude: 0 });
    const south = await seedAt({ latitude: -89.9, longitude: 120 });

    expect(found(await search('near=89.9,0&radiusKm=50'))).toEqual([
      [same, 5.56],
      [pole, 11.12],
      [across, 22.24],
      [side, 24.86],
    ]);
    expect(found(await search('near=90,-45&radiusKm=25')).map(([id]) => id)).toEqual([pole, same, across, side]);
    expect(found(await search('near=-89.95,-60&radiusKm=20'))).toEqual([[south, 16.68]]);
    expect(found(await search('near=-90,0&radiusKm=0.1'))).toEqual([]);
  });

  test.each([
    ['near=52.52', 'near must be latitude,longitude in decimal degrees, e.g. near=52.5219,13.4132'],
    ['near=52.52,13.41,0', 'near must be latitude,longitude in decimal degrees, e.g. near=52.5219,13.4132'],
    ['near=abc', 'near must be latitude,longitude in decimal degrees, e.g. near=52.5219,13.4132'],
    ['near=', 'near must be latitude,longitude in decimal degrees, e.g. near=52.5219,13.4132'],
    ['near=91,0', 'near: the latitude must be from -90 to 90'],
    ['near=0,-180.01', 'near: the longitude must be from -180 to 180'],
    ['near=0,0&radiusKm=0.05', 'radiusKm must be a number of kilometres from 0.1 to 50'],
    ['near=0,0&radiusKm=51', 'radiusKm must be a number of kilometres from 0.1 to 50'],
    ['near=0,0&radiusKm=five', 'radiusKm must be a number of kilometres from 0.1 to 50'],
    ['near=0,0&limit=0', 'limit must be an integer from 1 to 100'],
    ['near=0,0&limit=101', 'limit must be an integer from 1 to 100'],
    ['near=0,0&limit=1.5', 'limit must be an integer from 1 to 100'],
    ['radiusKm=5', 'radiusKm needs near=<latitude>,<longitude>: it only applies to a search around a point'],
    ['limit=5&status=available', 'limit needs near=<latitude>,<longitude>: it only applies to a search around a point'],
    ['near=0,0&status=closed', 'status must be one of available, maintenance, offline'],
    ['near=0,0&near=1,1', 'Query parameter near must be given once'],
    ['near=0,0&radius=5', 'Unknown query parameter radius'],
  ])('%s: 400 naming the parameter', async (query, message) => {
    const res = await call('GET', `/kiosks?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
  });
});

describe('what a search reads', () => {
  /** A kiosk document broken by hand (no location), stored under the geohash of `point`. */
  const brokenAt = (point: LatLng) => {
    const { location: _location, ...fields } = newKiosk({ name: 'Broken', address: 'Somewhere', location: point });
    return fields;
  };
  const invalidKioskIds = (lines: string[]) =>
    lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.message === 'kiosk_document_invalid')
      .map((entry) => entry.kioskId);

  test('only the geohash ranges around the point: 200 broken kiosks elsewhere are never read; one inside is left out and logged', async () => {
    const batch = db().batch();
    for (let i = 0; i < 200; i++) {
      // Around the world, and nearer: 10 to 300 km from Alexanderplatz.
      const point =
        i < 150
          ? { latitude: -60 + (i % 15) * 9, longitude: -170 + i * 2.2 }
          : pointAt(ALEXANDERPLATZ, 10 + (i - 150) * 6, i * 37);
      batch.set(kiosksCollection().doc(`elsewhere-${i}`), brokenAt(point));
    }
    await batch.commit();
    const good = await seedAt(pointAt(ALEXANDERPLATZ, 1, 45));
    const brokenNear = await seedAt(pointAt(ALEXANDERPLATZ, 2, 90));
    await kiosksCollection().doc(brokenNear).update({ location: FieldValue.delete() });

    expect(found(await search(near(ALEXANDERPLATZ)))).toEqual([[good, 1]]);

    const logs = captureLogs();
    try {
      const nearby = await kiosksNear({ center: ALEXANDERPLATZ, radiusKm: 5, limit: 50 }, undefined);
      expect(nearby.map(({ kiosk }) => kiosk.id)).toEqual([good]);
      expect(invalidKioskIds(logs.recent())).toEqual([brokenNear]);
      // The plain list reads every kiosk, and logs every broken one.
      logs.clear();
      expect((await listKiosks(undefined)).map((kiosk) => kiosk.id)).toEqual([good]);
      expect(invalidKioskIds(logs.recent())).toHaveLength(5);
    } finally {
      logs.restore();
    }
  });
});
