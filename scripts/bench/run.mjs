// @ts-check
// The benchmark proper, run inside `firebase emulators:exec` by scripts/bench.mjs:
//   node scripts/bench/run.mjs [--quick] [--diagnose]
// The functions are hosted as Cloud Functions hosts them (functions-framework on the
// built code, a process per instance) against the Firestore and Auth emulators; the
// functions emulator only runs the Firestore trigger (sections 3 and 3b). Emulator hosts come
// from the environment emulators:exec sets, so any firebase.json works.
//
// One module per section (sections/), in the order they run. By default the run
// measures what the targets judge and what BENCHMARKS.md reports beside them;
// --diagnose adds the sections that explain the figures (marked *):
//   *0  module load and first use        sections/module-load.mjs
//    1  cold start against the floor      sections/cold-start.mjs
//    2  warm latency against the floors   sections/warm-latency.mjs
//   *2b CPU profile of a warm request     sections/cpu-profile.mjs
//   *2c FIRESTORE_PREFER_REST vs gRPC     sections/rest-vs-grpc.mjs
//    3  trigger lag                       sections/trigger-lag.mjs
//    3b a backlog: batch vs singles        sections/batch-upload.mjs
//    4  throughput by data size           sections/throughput.mjs
//    4b kiosks near a point, fleet grows  sections/nearby.mjs
//    4c a history page as history grows   sections/history.mjs
//    4d the ledger's writes per award     sections/award-writes.mjs
//    5  deploy size                       sections/deploy-size.mjs
//    6  admin token check (checkRevoked)  sections/admin-token-check.mjs
// --quick shrinks every section to seconds (plan.mjs), for trying the bench itself.
// Writes BENCHMARKS.md (report.mjs) and .cache/bench/results.json (the outer script
// prints the targets and the two summary lines from it, after the emulators stop).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { cacheDir, repoRoot } from '../lib/paths.mjs';
import { API_SOURCE, logDir, memoryOf, startFunction, stopFunction, waitForSuccess } from './host.mjs';
import { writeReport } from './report.mjs';
import { describeMachine, emulatorsForBench, setUpBench, warmApiEnv } from './setup.mjs';
import { measureAdminTokenCheck } from './sections/admin-token-check.mjs';
import { measureAwardWrites } from './sections/award-writes.mjs';
import { measureBatchUpload } from './sections/batch-upload.mjs';
import { measureColdStart } from './sections/cold-start.mjs';
import { measureCpuProfile } from './sections/cpu-profile.mjs';
import { measureDeploySize } from './sections/deploy-size.mjs';
import { measureHistory } from './sections/history.mjs';
import { measureModuleLoad } from './sections/module-load.mjs';
import { measureNearby } from './sections/nearby.mjs';
import { measureRestVsGrpc } from './sections/rest-vs-grpc.mjs';
import { measureThroughput } from './sections/throughput.mjs';
import { measureTriggerLag } from './sections/trigger-lag.mjs';
import { measureWarmLatency } from './sections/warm-latency.mjs';

const { quick, diagnose } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, diagnose: { type: 'boolean', default: false } },
}).values;
const startedAt = performance.now();
const elapsed = () => `${((performance.now() - startedAt) / 1000).toFixed(0)} s`;

/**
 * What BENCHMARKS.md and .cache/bench/results.json are written from.
 * @typedef {Awaited<ReturnType<typeof measureSections>> & {
 *   started: string, quick: boolean, diagnose: boolean, durationS: number,
 *   machine: ReturnType<typeof describeMachine> & { loadAfter: number },
 *   plan: import('./plan.mjs').Plan, emulators: import('./setup.mjs').Emulators,
 * }} Results
 */

/**
 * Runs one section under its heading.
 * @template T
 * @param {string} heading
 * @param {() => T} measure
 */
function section(heading, measure) {
  console.log(`\n${heading} (${elapsed()})`);
  return measure();
}

async function main() {
  const started = new Date();
  const emulators = await emulatorsForBench();
  const machine = describeMachine();
  console.log(
    `Benchmark: project ${process.env.GCLOUD_PROJECT}, Firestore ${emulators.firestore}, Auth ${emulators.auth}, functions emulator ${emulators.functions}${quick ? ' (quick)' : ''}${diagnose ? ' (diagnose)' : ''}`,
  );
  console.log(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb.toFixed(1)} GB, Node ${machine.node}, load ${machine.loadBefore.toFixed(2)}`,
  );
  console.log(`functions-framework logs: ${logDir()}`);
  console.log(`Seeding... (${elapsed()})`);
  const bench = await setUpBench(emulators, { quick });
  const measured = await measureSections(bench).finally(() => bench.standIns.close());

  /** @type {Results} */
  const results = {
    started: started.toISOString(),
    quick,
    diagnose,
    machine: { ...machine, loadAfter: loadavg()[0] },
    plan: bench.plan,
    emulators,
    ...measured,
    durationS: (performance.now() - startedAt) / 1000,
  };
  const summary = writeReport(results);
  mkdirSync(join(cacheDir, 'bench'), { recursive: true });
  writeFileSync(join(cacheDir, 'bench', 'results.json'), JSON.stringify({ ...results, summary }, null, 2));
  console.log(`\nWrote ${join(repoRoot, 'BENCHMARKS.md')} (${elapsed()})`);
  // The functions-framework logs are kept only when the run fails.
  rmSync(logDir(), { recursive: true, force: true });
}

/**
 * Every section in the order they run; the diagnostic ones only with --diagnose.
 * @param {import('./setup.mjs').Bench} bench
 */
async function measureSections(bench) {
  const { plan } = bench;
  const moduleLoad = diagnose
    ? section(`0. Module load (require of the entry point, fresh process, median of ${plan.moduleLoadRuns})`, () =>
        measureModuleLoad(bench),
      )
    : undefined;
  const cold = await section(
    `1. Cold start (spawn → first 200, median of ${plan.coldRuns}, api and floor alternating)`,
    () => measureColdStart(bench),
  );
  const onWarmApi = await withWarmApi(bench, async (api) => {
    const before = { stage: 'warm instance before section 2', ...memoryOf(api.pid) };
    const warm = await section('2. Warm latency per endpoint', () => measureWarmLatency(bench, api));
    const cpuBreakdown = diagnose
      ? await section('2b. Where a warm request’s CPU goes, c=16, api vs same-host floor', () =>
          measureCpuProfile(bench),
        )
      : undefined;
    const rest = diagnose
      ? await section('2c. FIRESTORE_PREFER_REST=true vs gRPC', () => measureRestVsGrpc(bench, api))
      : undefined;
    const lag = await section('3. Trigger lag: transaction accepted → effects.completedAt', () =>
      measureTriggerLag(bench, api),
    );
    const backlog = await section(
      `3b. A backlog of ${bench.plan.batch.items}: one batch against single submissions of the same deposits`,
      () => measureBatchUpload(bench, api),
    );
    const memory = [before, ...warm.memory, { stage: 'after sections 3 and 3b', ...memoryOf(api.pid) }];
    return { warm: warm.rows, cpuBreakdown, ...rest, lag, ...backlog, memory };
  });
  const throughput = await section('4. Throughput of POST /kiosk/transaction', () => measureThroughput(bench));
  const nearby = await section('4b. GET /kiosks?near= at one neighbourhood as the fleet grows', () =>
    measureNearby(bench),
  );
  const history = await section('4c. GET /user/{id}/history: a page as the history grows', () => measureHistory(bench));
  const awardWrites = await section('4d. The ledger’s cost per award: Firestore writes counted', () =>
    measureAwardWrites(bench),
  );
  const size = section('5. Deploy size', () => measureDeploySize());
  const tokenCheck = await section('6. Admin token check: verifyIdToken with and without checkRevoked', () =>
    measureAdminTokenCheck(plan.tokenCheck),
  );
  return { ...moduleLoad, cold, ...onWarmApi, throughput, ...nearby, ...history, ...awardWrites, size, ...tokenCheck };
}

/**
 * Runs `use` on the one warm api instance that serves sections 2, 2c, 3 and 3b.
 * @template T
 * @param {import('./setup.mjs').Bench} bench
 * @param {(api: import('./host.mjs').Instance) => Promise<T>} use
 */
async function withWarmApi(bench, use) {
  const api = await startFunction({ source: API_SOURCE, env: warmApiEnv(bench), name: 'api-warm' });
  try {
    await waitForSuccess(api, '/');
    return await use(api);
  } finally {
    await stopFunction(api);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
