// @ts-check
// What must stay flat as the data grows: awards per second as users grow, a search
// near a point as the fleet grows elsewhere, a page of history as the history grows.
// Each size is served by a warm instance of its own; the sizes are measured in turn,
// round after round with the order rotating, so other load on the machine hits every
// size alike.
import { pointAt } from '../../../functions/test/harness/geo.ts';
import { idTokenFor } from '../../../functions/test/harness/auth.ts';
import { fleetUserWithHistory, writeAll } from '../../lib/fleet.mjs';
import { median, summarize } from '../../lib/stats.mjs';
import { db, projectFirestore, requireFn, seedDataSize } from '../data.mjs';
import { cannon, firstAnswer, functionEnv, startFunction, stopFunction } from '../host.mjs';

/**
 * Starts a warm api instance per project, runs `measure` with their URLs, stops them.
 * @template R
 * @param {string[]} projects
 * @param {Record<string, string>} env
 * @param {(urls: string[]) => Promise<R>} measure
 * @returns {Promise<R>}
 */
async function withInstances(projects, env, measure) {
  /** @type {import('../host.mjs').Instance[]} */
  const instances = [];
  try {
    for (const project of projects)
      instances.push(await startFunction({ env: functionEnv({ ...env, GCLOUD_PROJECT: project }) }));
    for (const instance of instances) await firstAnswer(instance, '/openapi.json');
    return await measure(instances.map((instance) => instance.url));
  } finally {
    for (const instance of instances) await stopFunction(instance);
  }
}

/**
 * `rounds` of `amount` requests (c=1) per target, in turn; latencies and backend times pooled per target.
 * @param {{ url: string, request: import('../host.mjs').BenchRequest }[]} targets
 * @param {{ rounds: number, amount: number }} plan
 */
async function inTurn(targets, { rounds, amount }) {
  for (const { url, request } of targets) await cannon(url, { connections: 1, amount: 5, build: () => request });
  const loads = targets.map(() => /** @type {import('../host.mjs').Load[]} */ ([]));
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round) % targets.length;
      loads[i].push(await cannon(targets[i].url, { connections: 1, amount, build: () => targets[i].request }));
    }
  return loads.map((runs) => ({
    ...summarize(runs.flatMap((run) => run.latencies)),
    backend: summarize(runs.flatMap((run) => run.backend)).p50,
    failed: runs.flatMap((run) => run.failures).length,
  }));
}

/**
 * POST /kiosk/transaction through autocannon for `seconds` per point, per users seeded and connections.
 * @param {{ env: Record<string, string>, runId: string, users: number[], connections: number[], seconds: number, rounds: number }} plan
 */
export async function measureThroughput({ env, runId, users, connections, seconds, rounds }) {
  /** @type {Awaited<ReturnType<typeof seedDataSize>>[]} */
  const sizes = [];
  for (const count of users) sizes.push(await seedDataSize(`${process.env.GCLOUD_PROJECT}-u${count}`, count, runId));
  return withInstances(
    sizes.map((size) => size.projectId),
    env,
    async (urls) => {
      const targets = sizes.map((size, i) => ({ ...size, url: urls[i] }));
      /** @type {(target: (typeof targets)[number], c: number, duration: number) => ReturnType<typeof cannon>} */
      const award = (target, c, duration) =>
        cannon(target.url, {
          connections: c,
          duration,
          build: (n) => {
            const kiosk = target.kiosks[n % target.kiosks.length];
            return {
              method: 'POST',
              path: '/kiosk/transaction',
              headers: { 'x-api-key': kiosk.apiKey, 'idempotency-key': `${runId}-tp-${n}` },
              body: {
                kioskId: kiosk.id,
                userId: `bench-user-${Math.floor(Math.random() * target.users)}`,
                plasticCount: 1 + (n % 5),
                metalCount: n % 3,
              },
            };
          },
        });
      for (const target of targets) await award(target, Math.max(...connections), Math.max(2, seconds));
      /** @type {Map<string, import('../host.mjs').Load[]>} */
      const runs = new Map();
      for (let round = 0; round < rounds; round++)
        for (let k = 0; k < targets.length; k++) {
          const target = targets[(k + round) % targets.length];
          for (const c of round % 2 ? [...connections].reverse() : connections) {
            const load = await award(target, c, seconds);
            runs.set(`${target.users}/${c}`, [...(runs.get(`${target.users}/${c}`) ?? []), load]);
            console.log(
              `  ${target.users} users, c=${c}: ${(load.result['2xx'] / seconds).toFixed(0)} req/s, non-2xx ${load.result.non2xx}, errors ${load.result.errors}`,
            );
          }
        }
      return targets.flatMap((target) =>
        connections.map((c) => {
          const loads = runs.get(`${target.users}/${c}`) ?? [];
          const total = (/** @type {'non2xx' | 'errors' | 'timeouts'} */ key) =>
            loads.reduce((sum, load) => sum + load.result[key], 0);
          return {
            users: target.users,
            connections: c,
            perSecond: median(loads.map((load) => load.result['2xx'] / seconds)),
            ...summarize(loads.flatMap((load) => load.latencies)),
            non2xx: total('non2xx'),
            errors: total('errors'),
            timeouts: total('timeouts'),
          };
        }),
      );
    },
  );
}

const NEIGHBOURHOOD = { latitude: 52.521918, longitude: 13.413215 };
const RADIUS_KM = 5;

/**
 * GET /kiosks?near= at one neighbourhood of `near` kiosks, with each of `fleets` kiosks
 * elsewhere in Europe (100+ km away), each fleet a project of its own.
 * @param {{ env: Record<string, string>, fleets: number[], near: number, rounds: number, amount: number }} plan
 */
export async function measureNearby({ env, fleets, near, rounds, amount }) {
  const { newKiosk } = requireFn('./lib/data/kiosks.js');
  const { geohashRanges } = requireFn('./lib/domain/geohashCover.js');
  const path = `/kiosks?near=${NEIGHBOURHOOD.latitude},${NEIGHBOURHOOD.longitude}&radiusKm=${RADIUS_KM}`;
  /** @type {{ projectId: string, fleet: number, read: number }[]} */
  const sizes = [];
  for (const fleet of fleets) {
    const projectId = `${process.env.GCLOUD_PROJECT}-near${fleet}`;
    const firestore = projectFirestore(projectId);
    const places = Array.from({ length: near }, (_, i) =>
      pointAt(NEIGHBOURHOOD, 0.2 + (4.3 * i) / near, (i * 137.5) % 360),
    );
    // Spread over 36-70°N, 10°W-40°E (a low-discrepancy sequence), none within 100 km of the neighbourhood.
    for (let i = 1; places.length < near + fleet; i++) {
      const place = {
        latitude: 36 + 34 * ((0.5 + 0.75487766 * i) % 1),
        longitude: -10 + 50 * ((0.5 + 0.56984029 * i) % 1),
      };
      const far =
        Math.abs(place.latitude - NEIGHBOURHOOD.latitude) > 1 ||
        Math.abs(place.longitude - NEIGHBOURHOOD.longitude) > 1.5;
      if (far) places.push(place);
    }
    await writeAll(
      places.map((location, i) => [
        firestore.collection('kiosks').doc(`kiosk-${i}`),
        newKiosk({ name: `Kiosk ${i}`, address: 'Bench street', location, timezone: 'Europe/Berlin' }),
      ]),
      firestore,
    );
    // What the search's geohash ranges (the service's own) hold in this project: the documents it reads.
    const reads = await Promise.all(
      geohashRanges(NEIGHBOURHOOD, RADIUS_KM).map((/** @type {[string, string]} */ [start, end]) =>
        firestore.collection('kiosks').where('geohash', '>=', start).where('geohash', '<', end).count().get(),
      ),
    );
    sizes.push({
      projectId,
      fleet,
      read: reads.reduce((sum, read) => sum + read.data().count, 0),
    });
  }
  return withInstances(
    sizes.map((size) => size.projectId),
    env,
    async (urls) => {
      const targets = sizes.map((size, i) => ({ ...size, url: urls[i] }));
      /** @type {number[]} */
      const found = [];
      for (const target of targets) found.push((await (await fetch(`${target.url}${path}`)).json()).kiosks.length);
      const measured = await inTurn(
        targets.map((target) => ({ url: target.url, request: { method: 'GET', path } })),
        { rounds, amount },
      );
      return targets.map((target, i) => ({
        fleet: target.fleet,
        near,
        found: found[i],
        read: target.read,
        ...measured[i],
      }));
    },
  );
}

/**
 * GET /user/{id}/history?limit=10: the first page of a user with each of `entries`
 * entries, and the last page of the longest history.
 * @param {{ env: Record<string, string>, runId: string, kioskId: string, entries: number[], rounds: number, amount: number }} plan
 */
export async function measureHistory({ env, runId, kioskId, entries, rounds, amount }) {
  const limit = 10;
  /** @type {{ entries: number, page: string, path: string, headers: Record<string, string> }[]} */
  const pages = [];
  for (const count of entries) {
    const userId = `bench-history-${runId}-${count}`;
    await writeAll(fleetUserWithHistory(db(), { userId, name: `History of ${count}`, entries: count, kioskId }));
    pages.push({
      entries: count,
      page: 'first',
      path: `/user/${userId}/history?limit=${limit}`,
      headers: { authorization: `Bearer ${await idTokenFor(userId)}` },
    });
  }
  return withInstances([String(process.env.GCLOUD_PROJECT)], env, async ([url]) => {
    // The last page: after the entry that comes `limit` before the oldest, at the position the service's cursor encodes.
    const { encodeCursor } = requireFn('./lib/domain/cursor.js');
    const longest = pages[pages.length - 1];
    const after = await db()
      .collection('ledger')
      .doc(`bench-history-${runId}-${longest.entries}-${String(limit).padStart(6, '0')}`)
      .get();
    const { seconds, nanoseconds } = after.get('createdAt');
    const last = {
      ...longest,
      page: 'last',
      path: `${longest.path}&cursor=${encodeCursor({ seconds, nanoseconds, id: after.id })}`,
    };
    pages.push(last);
    /** @type {number[]} */
    const shown = [];
    for (const page of pages)
      shown.push((await (await fetch(`${url}${page.path}`, { headers: page.headers })).json()).entries.length);
    const measured = await inTurn(
      pages.map(({ path, headers }) => ({ url, request: { method: 'GET', path, headers } })),
      { rounds, amount },
    );
    return pages.map(({ entries: count, page }, i) => ({ entries: count, page, shown: shown[i], ...measured[i] }));
  });
}
