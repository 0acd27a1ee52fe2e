// @ts-check
// Section 4b (judged): GET /kiosks?near= at one fixed neighbourhood as the fleet
// grows elsewhere. Each fleet size is a project of its own in the same Firestore
// emulator holding the same neighbourhood (kiosks within a few km of Alexanderplatz)
// and that many kiosks elsewhere in Europe, served by a warm instance of its own;
// the sizes are measured in turn, round after round, like section 4. A search that
// read the whole fleet would slow down with it; one that reads only the geohash
// ranges around the point (src/domain/geohashCover.ts) stays flat. Beside the
// latencies: the documents those ranges hold in each project, counted directly, and
// the time of those range queries done directly (the floor), timed in the same turns.
import { pointAt } from '../../../functions/test/harness/geo.ts';
import { requireFn } from '../endpoints.mjs';
import { measureInTurn, projectFirestore, writeInBatches } from '../growth.mjs';
import { API_SOURCE, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { httpSender, keepAliveAgent, request } from '../measure.mjs';
import { warmApiEnv } from '../setup.mjs';

const { newKiosk } = requireFn('./lib/data/kiosks.js');
const { geohashRanges } = requireFn('./lib/domain/geohashCover.js');
const { distanceBetween } = requireFn('geofire-common');

/** Where the app user stands: Berlin Alexanderplatz, where the demo kiosks are. */
export const NEIGHBOURHOOD = { latitude: 52.521918, longitude: 13.413215 };
export const RADIUS_KM = 5;
/** Kiosks "elsewhere" keep at least this far from the neighbourhood. */
const ELSEWHERE_KM = 100;

/**
 * `count` places spread over Europe (lat 36-70, lon -10-40; a low-discrepancy
 * sequence, so any prefix is spread too), none within ELSEWHERE_KM of the neighbourhood.
 * @param {number} count
 */
function elsewhere(count) {
  /** @type {{ latitude: number, longitude: number }[]} */
  const places = [];
  // The R2 sequence (golden ratio generalised to 2 dimensions).
  const [a1, a2] = [0.7548776662466927, 0.5698402909980532];
  for (let n = 1; places.length < count; n++) {
    const place = { latitude: 36 + 34 * ((0.5 + a1 * n) % 1), longitude: -10 + 50 * ((0.5 + a2 * n) % 1) };
    const km = distanceBetween([place.latitude, place.longitude], [NEIGHBOURHOOD.latitude, NEIGHBOURHOOD.longitude]);
    if (km > ELSEWHERE_KM) places.push(place);
  }
  return places;
}

/**
 * The neighbourhood's kiosks: `count` of them between 0.2 and 4.5 km of its centre, all around it.
 * @param {number} count
 */
const neighbourhood = (count) =>
  Array.from({ length: count }, (_, i) => pointAt(NEIGHBOURHOOD, 0.2 + (4.3 * i) / count, (i * 137.5) % 360));

/**
 * A project of its own holding the neighbourhood and `fleet` kiosks elsewhere, written
 * by the service's builder (newKiosk) in batches of 500, a few batches at a time.
 * @param {string} projectId
 * @param {number} fleet
 * @param {number} near
 */
async function seedFleet(projectId, fleet, near) {
  const firestore = projectFirestore(projectId);
  const kiosks = [
    ...neighbourhood(near).map((location, i) => ({ id: `near-${i}`, location })),
    ...elsewhere(fleet).map((location, i) => ({ id: `elsewhere-${i}`, location })),
  ];
  await writeInBatches(
    firestore,
    kiosks.map(({ id, location }) => [
      firestore.collection('kiosks').doc(id),
      newKiosk({ name: `Kiosk ${id}`, address: 'Bench street', location, timezone: 'Europe/Berlin' }),
    ]),
  );
  const reads = await rangeReads(firestore);
  return { projectId, fleet, documentsRead: reads.reduce((sum, read) => sum + read.size, 0), ranges: reads.length };
}

/**
 * The search's range queries in one project, done directly: what they hold is what the
 * search reads, and their time is the search's Firestore floor in that project.
 * @param {import('firebase-admin/firestore').Firestore} firestore
 */
const rangeReads = (firestore) =>
  Promise.all(
    geohashRanges(NEIGHBOURHOOD, RADIUS_KM).map((/** @type {[string, string]} */ [start, end]) =>
      firestore.collection('kiosks').where('geohash', '>=', start).where('geohash', '<', end).get(),
    ),
  );

/** @param {import('../setup.mjs').Bench} bench */
export async function measureNearby(bench) {
  const { fleets, neighbourhood: near, rounds, requests, warmup } = bench.plan.nearby;
  const path = `/kiosks?near=${NEIGHBOURHOOD.latitude},${NEIGHBOURHOOD.longitude}&radiusKm=${RADIUS_KM}`;
  /** @type {Target[]} */
  const targets = [];
  try {
    for (const fleet of fleets) {
      const started = Date.now();
      const seeded = await seedFleet(`${process.env.GCLOUD_PROJECT}-near${fleet}`, fleet, near);
      console.log(
        `  seeded ${fleet} kiosks elsewhere + ${near} near in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      const instance = await startFunction({
        source: API_SOURCE,
        env: warmApiEnv(bench, { GCLOUD_PROJECT: seeded.projectId }),
        name: `api-near${fleet}`,
      });
      const agent = keepAliveAgent(1);
      targets.push({ ...seeded, instance, agent, send: httpSender(instance.url, agent) });
    }
    for (const target of targets) {
      await waitForSuccess(target.instance, path);
      target.found = await kiosksFound(target, path);
    }
    // Each size's search, then each size's floor, all in the same rotation.
    const measured = await measureInTurn(
      [
        ...targets.map(
          ({ send }) =>
            () =>
              send({ method: 'GET', path }),
        ),
        ...targets.map(({ projectId }) => async () => {
          await rangeReads(projectFirestore(projectId));
          return { ok: true };
        }),
      ],
      { warmup, rounds, requests },
    );
    const rows = targets.map(({ fleet, documentsRead, ranges, found }, i) => ({
      fleet,
      near,
      found,
      documentsRead,
      ranges,
      ...measured[i],
      floorP50: measured[targets.length + i].p50,
    }));
    for (const row of rows) {
      console.log(
        `  ${String(row.fleet).padStart(6)} kiosks elsewhere: ${row.found} found of ${row.near} near, ${row.documentsRead} documents in ${row.ranges} ranges  p50 ${row.p50.toFixed(1)} ms (floor ${row.floorP50.toFixed(1)} ms)  p95 ${row.p95.toFixed(1)} ms  failed ${row.failed}`,
      );
    }
    const [smallest, largest] = [rows[0], rows[rows.length - 1]];
    return {
      nearby: {
        rows,
        path,
        radiusKm: RADIUS_KM,
        rounds,
        requests,
        ratio: largest.p50 / smallest.p50,
        floorRatio: largest.floorP50 / smallest.floorP50,
      },
    };
  } finally {
    for (const target of targets) {
      target.agent.destroy();
      await stopFunction(target.instance);
    }
  }
}

/**
 * How many kiosks the search answers on `target` (the same neighbourhood in every project).
 * @param {Target} target
 * @param {string} path
 */
async function kiosksFound(target, path) {
  const response = await request({ url: `${target.instance.url}${path}`, agent: target.agent });
  if (response.status !== 200)
    throw new Error(`GET ${path} on ${target.projectId}: ${response.status} ${response.body}`);
  return JSON.parse(response.body).kiosks.length;
}

/**
 * One fleet size: its project and what its ranges hold, its instance, and the latencies measured.
 * @typedef {Awaited<ReturnType<typeof seedFleet>> & {
 *   instance: import('../host.mjs').Instance, agent: import('node:http').Agent,
 *   send: ReturnType<typeof httpSender>, found?: number,
 * }} Target
 */
