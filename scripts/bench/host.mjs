// Hosting a function as Cloud Functions does (docs/performance.md, How the bench measures); the rotation of sizes.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { backendMs, cannon } from '../lib/cannon.mjs';
import { summarize } from '../lib/stats.mjs';
import { functionsDir } from '../lib/paths.mjs';

export { cannon };

const FRAMEWORK_MAIN = join(functionsDir, 'node_modules/@google-cloud/functions-framework/build/src/main.js');
/** Where the instances' output goes (removed when a run completes). */
export const logDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-logs-'));

/** The params, read once: functions/.env with the emulators' .env.local over it (functions-framework reads no .env). */
const envFiles = ['.env', '.env.local'].map((name) => join(functionsDir, name)).filter(existsSync);
const params = Object.assign({}, ...envFiles.map((file) => parseEnv(readFileSync(file, 'utf8'))));

/** Cloud Run's env of a 2nd gen function. @type {(extra?: Record<string, string>) => Record<string, string>} */
export const functionEnv = (extra = {}) => {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    FUNCTION_TARGET: 'api',
    FUNCTION_SIGNATURE_TYPE: 'http',
    K_SERVICE: 'api',
    K_REVISION: 'api-00001-bench',
    LOG_EXECUTION_ID: 'true',
    ...params,
    SMTP_PASSWORD: 'not-used-by-the-bench-mail-server',
    GCLOUD_PROJECT: process.env.GCLOUD_PROJECT,
    FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST,
    FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST,
    BENCH_CALL_TIMING: 'on',
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v));
};

/** The floor function's start options: floor.js, its packages resolved from functions/node_modules as the api's are. */
export const floorFunction = () => ({
  source: join(import.meta.dirname, 'floor.js'),
  env: functionEnv({ NODE_PATH: join(functionsDir, 'node_modules') }),
});

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

let instances = 0;
/** @typedef {{ source?: string, env: Record<string, string> }} StartOptions */
async function startFunction(/** @type {StartOptions} */ { source = functionsDir, env }) {
  const port = await freePort();
  const logFile = join(logDir, `instance-${++instances}.log`);
  const fd = openSync(logFile, 'w');
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [FRAMEWORK_MAIN, '--target=api', `--source=${source}`, `--port=${port}`], {
    cwd: functionsDir,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { child, url: `http://127.0.0.1:${port}`, spawnedAt, logFile, stop };
}
/** @typedef {Awaited<ReturnType<typeof startFunction>>} Instance */

/**
 * @type {<R>(options: StartOptions[], measure: (instances: Instance[], first: FirstAnswer[]) => Promise<R>, ready?: GetRequest) => Promise<R>}
 */
export const withInstances = async (options, measure, ready = { path: '/' }) => {
  const started = /** @type {Instance[]} */ ([]);
  try {
    for (const option of options) started.push(await startFunction(option));
    return await measure(started, await inSequence(started, (instance) => firstAnswer(instance, ready)));
  } finally {
    for (const instance of started) await instance.stop();
  }
};

/** @typedef {{ path: string, headers?: Record<string, string> }} GetRequest */
/** @param {Instance} instance @param {GetRequest} request */
export async function firstAnswer(instance, { path, headers }) {
  const { url, logFile } = instance;
  const answered = async () => {
    if (instance.child.exitCode !== null) throw new Error(`functions-framework exited; see ${logFile}`);
    const answer = await fetch(`${url}${path}`, { headers }).catch(() => undefined);
    return answer?.status === 200 ? answer : undefined;
  };
  const response = await waitFor(`${url}${path} to answer 200 (see ${logFile})`, answered, 60_000, undefined, 3);
  const firstResponseMs = performance.now() - instance.spawnedAt;
  return { firstResponseMs, backendMs: backendMs(response.headers.get('server-timing')), body: await response.json() };
}
/** @typedef {Awaited<ReturnType<typeof firstAnswer>>} FirstAnswer */

/** @typedef {import('../lib/cannon.mjs').BenchRequest} BenchRequest @typedef {import('../lib/cannon.mjs').Load} Load */

/** @type {<T, R>(items: T[], map: (item: T, i: number) => Promise<R>) => Promise<R[]>} */
export const inSequence = async (items, map) => {
  const results = [];
  for (const item of items) results.push(await map(item, results.length));
  return results;
};

/**
 * `rounds` rounds of `measure` over `items`, each starting one further on (other load hits all alike), per item.
 * @type {<T, R>(rounds: number, items: T[], measure: (item: T, i: number, round: number) => Promise<R>) => Promise<R[][]>}
 */
export const inRotation = async (rounds, items, measure) => {
  const measured = items.map(() => /** @type {any[]} */ ([]));
  for (let round = 0; round < rounds; round++)
    for (let k = round; k < round + items.length; k++) {
      const i = k % items.length;
      measured[i].push(await measure(items[i], i, round));
    }
  return measured;
};

/**
 * Per c, one kind of request against another (the baseline first): after 2c of each, `rounds` rounds of `amount(c)` of
 * each in rotation, `switchTo(c)` before every run. The row: each kind's p50 (by its field), their ratio, the failures.
 * @typedef {{ build: (n: number) => BenchRequest, switchTo?: (c: number) => Promise<unknown> }} Kind
 * @typedef {{ concurrencies: number[], rounds: number, amount: (c: number) => number }} VersusPlan
 * @type {<K extends string>(url: string, plan: VersusPlan, kinds: Record<K, Kind>) => Promise<({ c: number, ratio: number, failed: number } & Record<K, number>)[]>}
 */
export const versus = (url, { concurrencies, rounds, amount }, kinds) =>
  inSequence(concurrencies, async (c) => {
    const send = async (/** @type {Kind} */ { build, switchTo }, /** @type {number} */ n) => {
      await switchTo?.(c);
      return cannon(url, { connections: c, amount: n, build });
    };
    const [fields, each] = [Object.keys(kinds), /** @type {Kind[]} */ (Object.values(kinds))];
    for (const kind of each) await send(kind, 2 * c);
    const runs = await inRotation(rounds, each, (kind) => send(kind, amount(c)));
    const p50s = runs.map((loads) => summarize(loads.flatMap((load) => load.latencies)).p50);
    const ratio = p50s[1] / p50s[0];
    console.log(
      `  c=${c}: ${fields.map((field, i) => `${field} ${p50s[i].toFixed(1)}`).join(', ')} (${ratio.toFixed(2)}x)`,
    );
    const failed = runs.flat().flatMap((load) => load.failures).length;
    // Typed by the signature: a p50 per kind's field.
    return /** @type {any} */ ({ c, ...Object.fromEntries(fields.map((field, i) => [field, p50s[i]])), ratio, failed });
  });

/**
 * `rounds` of `amount` requests (c=1) per target in rotation, after `warmUp` each; figures pooled per target.
 * @param {{ url: string, request: BenchRequest }[]} targets @param {{ rounds: number, amount: number, warmUp?: number }} plan
 */
export async function inTurn(targets, { rounds, amount, warmUp = 5 }) {
  const send = (/** @type {(typeof targets)[number]} */ { url, request }, /** @type {number} */ n) =>
    cannon(url, { connections: 1, amount: n, build: () => request });
  if (warmUp) for (const target of targets) await send(target, warmUp);
  const loads = await inRotation(rounds, targets, (target) => send(target, amount));
  return loads.map((runs) => {
    const latency = summarize(runs.flatMap((run) => run.latencies));
    const backendP50 = summarize(runs.flatMap((run) => run.backend)).p50;
    const failed = runs.flatMap((run) => run.failures).length;
    // The service's own part: the emulator's time grows with its data in ways deployed Firestore's does not.
    return { ...latency, backendP50, p50AboveBackend: latency.p50 - backendP50, failed };
  });
}
