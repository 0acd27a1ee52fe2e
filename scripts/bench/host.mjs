// @ts-check
// Hosting the functions the way Cloud Functions does: @google-cloud/functions-framework
// serving one target of the built code, in a process of its own, against the
// emulators; what such a process uses (CPU, memory); and module-load timing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { heavyModulesIn } from '../../functions/test/harness/heavy-modules.ts';
import { functionsDir } from '../lib/paths.mjs';
import { freePort, request, sleep } from './measure.mjs';

const FRAMEWORK_MAIN = join(
  functionsDir,
  'node_modules',
  '@google-cloud',
  'functions-framework',
  'build',
  'src',
  'main.js',
);
export const API_SOURCE = functionsDir;

/**
 * functions/.env with the emulators' own .env.local over it, as the emulator sets them
 * (functions-framework does not read .env files): the production defaults, and the
 * local values of the params that have none (the mail server, the sender).
 */
function dotenvParams() {
  /** @type {Record<string, string>} */
  const params = {};
  for (const file of ['.env', '.env.local']) {
    for (const line of readFileSync(join(functionsDir, file), 'utf8').split('\n')) {
      const match = line.match(/^\s*([A-Z0-9_]+)\s*=(.*)$/);
      if (match) params[match[1]] = match[2].trim().replace(/^"(.*)"$/, '$1');
    }
  }
  return params;
}

/** @type {Record<string, string> | undefined} dotenvParams(), read at the first functionEnv() call. */
let dotenv;

/** @type {Record<string, string>} */
const platformEnv = {};
/**
 * What the platform gives every instance (here: the stand-in metadata server).
 * @param {Record<string, string>} env
 */
export function setPlatformEnv(env) {
  Object.assign(platformEnv, env);
}

/**
 * The environment of a function instance: what Cloud Run functions sets for a 2nd
 * gen HTTP function named `api`, the params of functions/.env, a stand-in secret,
 * the emulator hosts, and nothing else of the bench's own environment.
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
export function functionEnv(extra = {}) {
  /** @type {Record<string, string | undefined>} */
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    FUNCTION_TARGET: 'api',
    FUNCTION_SIGNATURE_TYPE: 'http',
    K_SERVICE: 'api',
    K_REVISION: 'api-00001-bench',
    LOG_EXECUTION_ID: 'true', // firebase deploy sets it on 2nd gen functions
    ...(dotenv ??= dotenvParams()),
    SMTP_PASSWORD: 'not-used-by-the-bench-mail-server',
    GCLOUD_PROJECT: process.env.GCLOUD_PROJECT,
    FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST,
    FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST,
    ...platformEnv,
    ...extra,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return /** @type {Record<string, string>} */ (env);
}

/** The directory of the functions-framework logs of this run (kept only when the run fails). */
export const logDir = (() => {
  /** @type {string | undefined} */
  let dir;
  return () => {
    dir ??= mkdtempSync(join(tmpdir(), 'kiosk-bench-logs-'));
    return dir;
  };
})();

let logCounter = 0;

/**
 * Spawns functions-framework for target `api` of `source`; its output goes to a log file.
 * @param {{ source: string, env: Record<string, string>, name: string, nodeArgs?: string[] }} options
 */
export async function startFunction({ source, env, name, nodeArgs = [] }) {
  const port = await freePort();
  const logFile = join(logDir(), `${name}-${++logCounter}.log`);
  const fd = openSync(logFile, 'w');
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, FRAMEWORK_MAIN, '--target=api', `--source=${source}`, `--port=${port}`],
    {
      cwd: source,
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    pid: /** @type {number} */ (child.pid),
    port,
    url: `http://127.0.0.1:${port}`,
    spawnedAt,
    logFile,
    exited,
  };
}

/** @typedef {Awaited<ReturnType<typeof startFunction>>} Instance */

/** @param {Instance} instance */
export async function stopFunction(instance) {
  if (instance.child.exitCode === null && instance.child.signalCode === null) {
    instance.child.kill('SIGTERM');
    const timer = setTimeout(() => instance.child.kill('SIGKILL'), 5000);
    await instance.exited;
    clearTimeout(timer);
  }
}

/**
 * CPU time a live process has used so far, in ms: the sum over its threads of
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds), else /proc/<pid>/stat (clock ticks).
 * @param {number} pid
 */
export function cpuTimeMs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
    if (ns > 0) return ns / 1e6;
  } catch {
    // no schedstat on this kernel
  }
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * VmHWM (peak resident set) and VmRSS of a live process, in KiB.
 * @param {number} pid
 */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (/** @type {string} */ name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]);
  return { hwmKb: field('VmHWM'), rssKb: field('VmRSS') };
}

/**
 * Polls `url` on fresh connections until it answers `expect`: returns the time the
 * first connection was accepted (the process listens: code loaded) and the time of
 * the first successful answer, both from spawn.
 * @param {Instance} instance
 * @param {string} path
 * @param {{ expect?: number, timeoutMs?: number, headers?: Record<string, string> }} [options]
 */
export async function waitForSuccess(instance, path, { expect = 200, timeoutMs = 60_000, headers = {} } = {}) {
  const deadline = performance.now() + timeoutMs;
  let listeningAt;
  for (;;) {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null)
      throw new Error(`functions-framework exited early; see ${instance.logFile}`);
    const attemptAt = performance.now();
    try {
      const response = await request({ url: `${instance.url}${path}`, headers, agent: false });
      listeningAt ??= attemptAt;
      if (response.status === expect) {
        return {
          listenMs: listeningAt - instance.spawnedAt,
          firstResponseMs: performance.now() - instance.spawnedAt,
          body: response.body,
        };
      }
    } catch (error) {
      const { code } = /** @type {NodeJS.ErrnoException} */ (error);
      if (code !== 'ECONNREFUSED' && code !== 'ECONNRESET') throw error;
    }
    if (performance.now() > deadline)
      throw new Error(`${instance.url}${path} did not answer ${expect}; see ${instance.logFile}`);
    await sleep(3);
  }
}

/**
 * One cold start: spawn → first successful response of `path`, and the peak memory just after.
 * @param {{ source: string, env: Record<string, string>, path: string, headers?: Record<string, string>, name: string }} options
 */
export async function coldStart({ source, env, path, headers, name }) {
  const instance = await startFunction({ source, env, name });
  try {
    const timing = await waitForSuccess(instance, path, { headers });
    return { ...timing, cpuMs: cpuTimeMs(instance.pid), ...memoryOf(instance.pid) };
  } finally {
    await stopFunction(instance);
  }
}

/**
 * `require` of a module in a fresh Node process, timed inside it (excludes Node's
 * own start): milliseconds, modules loaded, which heavy modules came along, heap.
 * @param {{ entries: string[], cwd: string, env: Record<string, string>, functionTarget?: string }} options
 */
export function moduleLoad({ entries, cwd, env, functionTarget }) {
  const code = `
    const t0 = performance.now();
    for (const entry of ${JSON.stringify(entries)}) require(entry);
    const ms = performance.now() - t0;
    const paths = Object.keys(require.cache);
    process.stdout.write(JSON.stringify({ ms, paths, rssKb: process.memoryUsage().rss / 1024 }));
  `;
  const withTarget = { ...env };
  if (functionTarget === undefined) delete withTarget.FUNCTION_TARGET;
  else withTarget.FUNCTION_TARGET = functionTarget;
  const run = spawnSync(process.execPath, ['-e', code], { cwd, env: withTarget, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`module load of ${entries.join(', ')} failed: ${run.stderr}`);
  const { ms, paths, rssKb } = JSON.parse(run.stdout);
  return { ms, modules: paths.length, heavy: heavyModulesIn(paths), rssKb };
}
