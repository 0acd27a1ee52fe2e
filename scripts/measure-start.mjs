// @ts-check
// How quickly `npm start` answers, against a bare `firebase emulators:start` of the
// same emulators on the same built code:
//   flock /tmp/kiosk-emulators.lock node scripts/measure-start.mjs [--runs 3] [--script start]
// Runs the two alternately, --runs times each: launches one in a process group of its
// own, times launch -> first 200 from GET {API}/ (and, for npm start, the banner),
// then sends the group SIGINT as Ctrl-C in a terminal does, and checks that every
// process of that stack ended and that no port of the stack is still open before the
// next run. Prints each run, both medians and their ratio; each run's output, every
// line stamped with the seconds since launch, goes to .cache/measure-start/.
// The emulators' ports are fixed: hold the shared lock, as above, for the whole run.
// --script stack:start measures the start without `npm start`'s dependency check, for a
// checkout whose node_modules another checkout installed (where that check would reinstall).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  EMULATORS,
  HOSTS,
  LOCAL_PROJECT_ID,
  apiUrl,
  buildFunctions,
  emulatorEnv,
  ensureLocalSecrets,
} from './lib/emulators.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';
import { commandLine, openPorts, stillRunning, trackDescendants } from './lib/processes.mjs';

const API = apiUrl(LOCAL_PROJECT_ID);
const ANSWER_TIMEOUT_MS = 180_000;
const BANNER_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;
const LEFTOVER_TIMEOUT_MS = 10_000;
const PORTS_FREE_TIMEOUT_MS = 30_000;
/**
 * Every port either stack listens on or might: the emulators, the hub's logging, Firestore's websocket, the
 * Emulator UI (off in firebase.json), npm start's mail catcher and API reference page.
 */
const PORTS = [...Object.values(HOSTS).map((host) => Number(host.split(':')[1])), 4500, 9150, 4000, 1025, 1080, 8090];

const usage =
  'usage: node scripts/measure-start.mjs [--runs N] [--script NAME]   (N runs of each, default 3; npm script NAME, default start)';
let runs;
let script;
try {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      script: { type: 'string', default: 'start' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  runs = Number(values.runs);
  script = values.script;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs needs a whole number above 0, not ${values.runs}`);
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
  process.exit(2);
}

const bin = join(repoRoot, 'node_modules', '.bin');
/** What a person types: npm puts the project's bin (Node 22, firebase) first on the PATH, so the bare start gets it too. */
const VARIANTS = {
  bare: {
    label: `firebase emulators:start --only ${EMULATORS}`,
    command: join(bin, 'firebase'),
    args: ['emulators:start', '--only', EMULATORS, '--project', LOCAL_PROJECT_ID],
    env: { ...process.env, ...emulatorEnv(), PATH: `${bin}:${process.env.PATH}` },
    banner: false,
  },
  start: {
    label: `npm run ${script}`,
    command: 'npm',
    args: ['run', '--silent', script],
    env: process.env,
    banner: true,
  },
};

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (/** @type {number} */ ms) => (ms / 1000).toFixed(1);
/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * First 200 from GET {API}/, polled every 100 ms: the instant a person's first request would be answered.
 * @param {number} launched
 * @param {Exited} exited
 */
async function firstAnswer(launched, exited) {
  while (performance.now() - launched < ANSWER_TIMEOUT_MS) {
    if (exited.done) throw new Error(`it exited before answering (${exited.how})`);
    const ok = await fetch(`${API}/`, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return performance.now() - launched;
    await sleep(100);
  }
  throw new Error(`${API}/ did not answer 200 within ${ANSWER_TIMEOUT_MS / 1000} s`);
}

/** @typedef {{ done: boolean, how: string }} Exited whether the launched process ended, and how */
/** @typedef {ReturnType<typeof trackDescendants>} Tracked */
/** @typedef {import('./lib/processes.mjs').Proc} Proc */

/**
 * The stack being measured (its launched process and every descendant seen), ended if this script is interrupted.
 * @type {Tracked | undefined}
 */
let current;

/**
 * One launch, answer, Ctrl-C, check. Returns its figures, or throws what went wrong (after cleaning up).
 * @param {keyof typeof VARIANTS} name
 * @param {number} index
 */
async function measure(name, index) {
  const variant = VARIANTS[name];
  const portsDeadline = performance.now() + PORTS_FREE_TIMEOUT_MS;
  for (let open = await openPorts(PORTS); open.length; open = await openPorts(PORTS)) {
    if (performance.now() > portsDeadline) {
      throw new Error(`ports ${open.join(', ')} are in use before the run: is another stack running?`);
    }
    await sleep(500);
  }
  const logPath = join(cacheDir, 'measure-start', `${index}-${name}.log`);
  const log = createWriteStream(logPath);
  const launched = performance.now();
  const proc = spawn(variant.command, variant.args, {
    cwd: repoRoot,
    env: variant.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tracked = trackDescendants(proc.pid ?? 0);
  current = tracked;
  /** @type {Exited} */
  const exited = { done: false, how: '' };
  const exit = new Promise((resolve) =>
    proc.on('exit', (code, signal) => {
      Object.assign(exited, { done: true, how: signal ? `signal ${signal}` : `exit code ${code}` });
      resolve(code);
    }),
  );
  /** @type {string[]} */
  const lines = [];
  for (const stream of [proc.stdout, proc.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      log.write(`+${((performance.now() - launched) / 1000).toFixed(3)}s ${line}\n`);
    });
  }

  try {
    const answered = await firstAnswer(launched, exited);
    let banner;
    if (variant.banner) {
      const deadline = performance.now() + BANNER_TIMEOUT_MS;
      while (!lines.some((line) => line.includes('More: npm run admin -- help'))) {
        if (exited.done) throw new Error(`it exited before printing its banner (${exited.how})`);
        if (performance.now() > deadline)
          throw new Error(`no banner within ${BANNER_TIMEOUT_MS / 1000} s after the answer`);
        await sleep(100);
      }
      const printed = lines.find((line) => /answered its first request/.test(line));
      if (!lines.some((line) => line.includes('API key'))) throw new Error("the banner lacks the seed's report");
      banner = { at: performance.now() - launched, printed: printed?.trim() ?? '(no time printed)' };
    }
    tracked.look();
    const tree = [...tracked.seen.values()];
    const stopAt = performance.now();
    process.kill(-(proc.pid ?? 0), 'SIGINT');
    const code = await Promise.race([exit, sleep(STOP_TIMEOUT_MS).then(() => 'timeout')]);
    if (code === 'timeout') throw new Error(`it did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGINT`);
    const stopped = performance.now() - stopAt;
    await noLeftovers(tree);
    return { answered, banner, stopped, code, processes: tree.length };
  } finally {
    tracked.stop();
    if (stillRunning([...tracked.seen.values()]).length) await cleanUp(tracked);
    current = undefined;
    log.end();
  }
}

/**
 * Every process of the stack gone and every port closed, within a few seconds of its exit.
 * @param {Proc[]} tree
 */
async function noLeftovers(tree) {
  const deadline = performance.now() + LEFTOVER_TIMEOUT_MS;
  for (;;) {
    const left = stillRunning(tree);
    const open = await openPorts(PORTS);
    if (!left.length && !open.length) return;
    if (performance.now() > deadline) {
      const what = [
        ...left.map(({ pid }) => `pid ${pid}: ${commandLine(pid)}`),
        ...(open.length ? [`open ports: ${open.join(', ')}`] : []),
      ];
      throw new Error(`left behind after it exited:\n    ${what.join('\n    ')}`);
    }
    await sleep(200);
  }
}

/**
 * After a failure: ends every process of the stack that is still running (all of them started here).
 * @param {Tracked} tracked
 */
async function cleanUp(tracked) {
  tracked.look();
  for (const { pid } of stillRunning([...tracked.seen.values()])) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await sleep(500);
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (current) void cleanUp(current).then(() => process.exit(130));
    else process.exit(130);
  });
}

rmSync(join(cacheDir, 'measure-start'), { recursive: true, force: true });
mkdirSync(join(cacheDir, 'measure-start'), { recursive: true });
// Both run on the same built code; npm start then finds it built, as on a second start.
ensureLocalSecrets();
buildFunctions();

/** @type {{ bare: number[], start: number[] }} */
const results = { bare: [], start: [] };
let failed = 0;
for (let index = 1; index <= runs * 2; index++) {
  const name = index % 2 ? 'bare' : 'start';
  try {
    const result = await measure(name, index);
    results[name].push(result.answered);
    const banner = result.banner ? `, banner at ${seconds(result.banner.at)} s ("${result.banner.printed}")` : '';
    console.log(
      `${String(index).padStart(2)}. ${VARIANTS[name].label.padEnd(52)} first 200 at ${seconds(result.answered)} s${banner}; ` +
        `Ctrl-C: stopped in ${seconds(result.stopped)} s (exit ${result.code}), ${result.processes} processes and all ports gone; ` +
        `load average ${loadavg()[0].toFixed(1)}`,
    );
  } catch (error) {
    failed++;
    console.log(
      `${String(index).padStart(2)}. ${VARIANTS[name].label}: FAILED: ${error instanceof Error ? error.message : error}`,
    );
  }
}

if (results.bare.length && results.start.length) {
  const bare = median(results.bare);
  const start = median(results.start);
  console.log(
    `\nmedian launch -> first 200: ${VARIANTS.start.label} ${seconds(start)} s (${results.start.map(seconds).join(', ')}), ` +
      `bare ${VARIANTS.bare.label} ${seconds(bare)} s (${results.bare.map(seconds).join(', ')}); ratio ${(start / bare).toFixed(2)}`,
  );
}
process.exit(failed ? 1 : 0);
