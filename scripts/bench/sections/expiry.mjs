// @ts-check
// The expiry run (§14, docs/performance.md): each size a project of its own, run in a worker thread loading the built
// functions; sizes rotate, the due users' points put back and a day of its own for each run.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { writeAll } from '../../lib/fleet.mjs';
import { median } from '../../lib/stats.mjs';
import { functionsDir, requireFunctions } from '../../lib/paths.mjs';
import { sizeProject } from '../data.mjs';
import { inRotation, inSequence } from '../host.mjs';

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
