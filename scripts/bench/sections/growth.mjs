// What must stay flat as the data grows (docs/performance.md), a warm instance per size, the sizes in rotation: the
// throughput, kiosks nearby, a history page, a person's export (§15); and the expiry run (§14), a project per size run
// in a worker thread loading the built functions, the due users' points put back and a day of its own for each run.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pointAt } from '../../../functions/test/harness/geo.ts';
import { idTokenFor } from '../../../functions/test/harness/auth.ts';
import { db, fleetUserWithHistory, writeAll } from '../../lib/fleet.mjs';
import { median, summarize } from '../../lib/stats.mjs';
import { functionsDir, requireFunctions } from '../../lib/paths.mjs';
import { endpoints, seedFleet, sizeProject } from '../data.mjs';
import { cannon, firstAnswer, functionEnv, inRotation, inSequence, inTurn, withInstances } from '../host.mjs';

/**
 * @param {{ env: Record<string, string>, data: import('../data.mjs').Data, users: number[], connections: number[], seconds: number, rounds: number }} plan
 */
export async function measureThroughput({ env, data, users, connections, seconds, rounds }) {
  const sizes = await inSequence(users, async (count) => {
    const { projectId, firestore, instance } = sizeProject(`u${count}`, env);
    const fleet = await seedFleet(firestore, count, `${data.runId}-${projectId}`);
    const [{ request }] = endpoints({ ...data, ...fleet }).filter(({ name }) => name === 'POST /kiosk/transaction');
    return { users: count, request, instance };
  });
  const options = sizes.map((size) => size.instance);
  return withInstances(options, async (instances) => {
    const award = (/** @type {number} */ i, /** @type {number} */ c, /** @type {number} */ duration) =>
      cannon(instances[i].url, { connections: c, duration, build: sizes[i].request });
    for (let i = 0; i < sizes.length; i++) await award(i, Math.max(...connections), Math.max(2, seconds));
    const loads = sizes.map(() => connections.map(() => /** @type {import('../host.mjs').Load[]} */ ([])));
    await inRotation(rounds, sizes, async (size, i, round) => {
      for (const c of round % 2 ? [...connections].reverse() : connections) {
        const load = await award(i, c, seconds);
        loads[i][connections.indexOf(c)].push(load);
        console.log(`  ${size.users} users, c=${c}: ${(load.result['2xx'] / seconds).toFixed(0)} req/s`);
      }
    });
    return sizes.flatMap((size, i) =>
      connections.map((c, j) => {
        const runs = loads[i][j];
        const total = (/** @type {'non2xx' | 'errors' | 'timeouts'} */ key) =>
          runs.reduce((sum, load) => sum + load.result[key], 0);
        return {
          users: size.users,
          c,
          requestsPerSecond: median(runs.map((load) => load.result['2xx'] / seconds)),
          ...summarize(runs.flatMap((load) => load.latencies)),
          non2xx: total('non2xx'),
          errors: total('errors'),
          timeouts: total('timeouts'),
        };
      }),
    );
  });
}

const NEIGHBOURHOOD = { latitude: 52.521918, longitude: 13.413215 };
const RADIUS_KM = 5;

/** @param {{ env: Record<string, string>, fleets: number[], near: number, rounds: number, amount: number }} plan */
export async function measureNearby({ env, fleets, near, rounds, amount }) {
  const { newKiosk } = requireFunctions('./lib/data/kiosks.js');
  const { geohashRanges } = requireFunctions('./lib/domain/geohashCover.js');
  const path = `/kiosks?near=${NEIGHBOURHOOD.latitude},${NEIGHBOURHOOD.longitude}&radiusKm=${RADIUS_KM}`;
  const sizes = await inSequence(fleets, async (fleet) => {
    const { firestore, instance } = sizeProject(`near${fleet}`, env);
    const places = Array.from({ length: near }, (_, i) =>
      pointAt(NEIGHBOURHOOD, 0.2 + (4.3 * i) / near, (i * 137.5) % 360),
    );
    // Spread over 36-70°N, 10°W-40°E (a low-discrepancy sequence), none within 100 km of the neighbourhood.
    for (let i = 1; places.length < near + fleet; i++) {
      const latitude = 36 + 34 * ((0.5 + 0.75487766 * i) % 1);
      const longitude = -10 + 50 * ((0.5 + 0.56984029 * i) % 1);
      const far =
        Math.abs(latitude - NEIGHBOURHOOD.latitude) > 1 || Math.abs(longitude - NEIGHBOURHOOD.longitude) > 1.5;
      if (far) places.push({ latitude, longitude });
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
    const documentsRead = reads.reduce((sum, read) => sum + read.data().count, 0);
    return { kiosksElsewhere: fleet, near, instance, documentsRead };
  });
  const options = sizes.map((size) => size.instance);
  return withInstances(options, async (instances) => {
    const found = await inSequence(instances, async (api) => (await firstAnswer(api, { path })).body.kiosks.length);
    const targets = instances.map(({ url }) => ({ url, request: { method: 'GET', path } }));
    const measured = await inTurn(targets, { rounds, amount });
    return sizes.map(({ instance: _, ...size }, i) => ({ ...size, found: found[i], ...measured[i] }));
  });
}

/**
 * @param {{ env: Record<string, string>, runId: string, kioskId: string, entries: number[], rounds: number, amount: number }} plan
 */
export async function measureHistory({ env, runId, kioskId, entries, rounds, amount }) {
  const limit = 10;
  const pages = await inSequence(entries, async (count) => {
    const userId = `bench-history-${runId}-${count}`;
    await writeAll(fleetUserWithHistory(db(), { userId, name: `History of ${count}`, entries: count, kioskId }));
    const headers = { authorization: `Bearer ${await idTokenFor(userId)}` };
    return { entries: count, page: 'first', path: `/user/${userId}/history?limit=${limit}`, headers };
  });
  // The last page: after the entry that comes `limit` before the oldest, at the position the service's cursor encodes.
  const { encodeCursor } = requireFunctions('./lib/domain/cursor.js');
  const longest = pages[pages.length - 1];
  const afterId = `bench-history-${runId}-${longest.entries}-${String(limit).padStart(6, '0')}`;
  const after = await db().collection('ledger').doc(afterId).get();
  const { seconds, nanoseconds } = after.get('createdAt');
  const cursor = encodeCursor({ seconds, nanoseconds, id: after.id });
  pages.push({ ...longest, page: 'last', path: `${longest.path}&cursor=${cursor}` });
  return withInstances([{ env: functionEnv(env) }], async ([api]) => {
    const shown = await inSequence(pages, async (page) => (await firstAnswer(api, page)).body.entries.length);
    const targets = pages.map(({ path, headers }) => ({ url: api.url, request: { method: 'GET', path, headers } }));
    const measured = await inTurn(targets, { rounds, amount });
    return pages.map(({ entries: count, page }, i) => ({ entries: count, page, shown: shown[i], ...measured[i] }));
  });
}

/** The instance's resident memory now and its peak so far (MiB), from /proc/<pid>/status. */
function memoryOf(/** @type {import('../host.mjs').Instance} */ instance) {
  const status = readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
  const mib = (/** @type {string} */ field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  return { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM') };
}

/** @param {{ env: Record<string, string>, runId: string, kioskId: string, entries: number[], rounds: number }} plan */
export async function measureExport({ env, runId, kioskId, entries, rounds }) {
  const users = await inSequence(entries, async (count) => {
    const userId = `bench-export-${runId}-${count}`;
    const history = { userId, name: `Export of ${count}`, entries: count, kioskId, transactions: true };
    await writeAll(fleetUserWithHistory(db(), history));
    const headers = { authorization: `Bearer ${await idTokenFor(userId)}` };
    return { entries: count, request: { method: 'GET', path: `/user/${userId}/export`, headers } };
  });
  const options = users.map(() => ({ env: functionEnv(env) }));
  return withInstances(options, async (instances) => {
    for (const instance of instances) await firstAnswer(instance, users[0].request);
    const warm = instances.map(memoryOf);
    // One export of each size checked whole before the timing: as many entries and transactions as seeded.
    const bytes = await inSequence(users, async ({ entries: count, request }, i) => {
      const response = await fetch(`${instances[i].url}${request.path}`, { headers: request.headers });
      const body = await response.text();
      const { ledger, transactions } = JSON.parse(body);
      if (response.status !== 200 || ledger.length !== count || transactions.length !== count)
        throw new Error(`the export of ${count} entries answered ${response.status}`);
      return Buffer.byteLength(body);
    });
    const targets = users.map(({ request }, i) => ({ url: instances[i].url, request }));
    const measured = await inTurn(targets, { rounds, amount: 1, warmUp: 0 });
    return users.map((user, i) => ({
      entries: user.entries,
      bytes: bytes[i],
      lastByteMs: measured[i].p50,
      failed: measured[i].failed,
      warmRssMib: warm[i].rssMiB,
      peakRssMib: memoryOf(instances[i]).peakMiB,
    }));
  });
}

const AFTER_MONTHS = 1;
const POINTS = 100;

/** Runs runExpiry for the day it is sent, answering with the time it took (ms) and its outcome. */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const lib = (path) => require(${JSON.stringify(join(functionsDir, 'lib'))} + path);
const { runExpiry } = lib('/services/pointsExpiry.js');
const { pushTransport } = lib('/adapters/push.js');
parentPort.on('message', async (asOf) => {
  const started = performance.now();
  const outcome = await runExpiry(asOf, pushTransport());
  parentPort.postMessage({ ms: performance.now() - started, outcome });
});`;

/** @param {{ due: number, idle: number, rounds: number }} plan */
export async function measureExpiry({ due, idle, rounds }) {
  const { newProfile, pointsModel } = requireFunctions('./lib/data/users.js');
  const { DEFAULT_REWARDS } = requireFunctions('./lib/domain/rewards.js');
  const { addMonths, monthOf } = requireFunctions('./lib/domain/pointsExpiry.js');
  const month = monthOf(new Date());
  // Added long enough ago to have expired on any day of this month.
  const expiredMonth = addMonths(month, -(AFTER_MONTHS + 2));
  const user = (/** @type {string} */ name) =>
    newProfile({ name, currentPoints: POINTS, totalPoints: POINTS }, DEFAULT_REWARDS);
  const sizes = await inSequence([idle, 10 * idle], async (idleUsers) => {
    const { projectId, firestore } = sizeProject(`expiry${idleUsers}`);
    const dueDocs = Array.from({ length: due }, (_, i) => [
      firestore.collection('users').doc(`due-${i}`),
      { ...user(`Due ${i}`), ...pointsModel({ [expiredMonth]: POINTS }) },
    ]);
    await firestore.doc('config/rewards').set({ pointsExpireAfterMonths: AFTER_MONTHS });
    await writeAll(
      Array.from({ length: idleUsers }, (_, i) => [firestore.collection('users').doc(`idle-${i}`), user(`Idle ${i}`)]),
      firestore,
    );
    // Without FIREBASE_CONFIG (emulators:exec's, naming the bench's project), firebase-admin takes GCLOUD_PROJECT.
    const { FIREBASE_CONFIG: _config, GOOGLE_CLOUD_PROJECT: _project, ...inherited } = process.env;
    const env = { ...inherited, GCLOUD_PROJECT: projectId, PUSH_TRANSPORT: 'outbox' };
    const worker = new Worker(WORKER, { eval: true, env });
    return { idleUsers, firestore, dueDocs, worker, days: 0, usersRead: 0 };
  });
  /** One run of `size` for a day of its own, its due users' points put back first: its time (ms). */
  const run = async (/** @type {(typeof sizes)[number]} */ size) => {
    await writeAll(size.dueDocs, size.firestore);
    const asOf = `${month}-${String(++size.days).padStart(2, '0')}`;
    // once() rejects if the worker emits 'error' first.
    const answered = once(size.worker, 'message');
    size.worker.postMessage(asOf);
    /** @type {{ ms: number, outcome: { usersRead: number, expired: { users: number }, failed: number } }} */
    const answer = (await answered)[0];
    const { usersRead, expired, failed } = answer.outcome;
    if (expired.users !== due || failed) throw new Error(`the run of ${asOf} expired ${expired.users} users of ${due}`);
    size.usersRead = usersRead;
    return answer.ms;
  };
  try {
    for (const size of sizes) await run(size);
    const runs = await inRotation(rounds, sizes, run);
    return sizes.map(({ idleUsers, usersRead }, i) => ({
      usersDue: due,
      idleUsers,
      usersRead,
      timeMs: median(runs[i]),
      runs: runs[i],
    }));
  } finally {
    await Promise.all(sizes.map((size) => size.worker.terminate()));
  }
}
