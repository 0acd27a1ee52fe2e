// @ts-check
// What every section of the bench is given: the plan, the emulators found, the seeded
// data with each endpoint's request and floor, and the stand-in servers.
import { cpus, loadavg, release, totalmem } from 'node:os';
import { discoverEmulators, setBackgroundTriggers } from '../../functions/test/harness/emulators.ts';
import { endpointSpecs } from './endpoints.mjs';
import { seed } from './seed.mjs';
import { functionEnv } from './host.mjs';
import { benchPlan } from './plan.mjs';
import { startStandIns } from './stand-ins.mjs';

/**
 * @typedef {object} Bench
 * @property {import('./plan.mjs').Plan} plan
 * @property {Emulators} emulators
 * @property {import('./endpoints.mjs').BenchContext & { emulators: Emulators }} ctx the seeded data (seed.mjs), the run id and the emulators
 * @property {import('./endpoints.mjs').EndpointSpec[]} specs every endpoint the bench times
 * @property {import('./stand-ins.mjs').StandIns} standIns
 * @property {Record<string, string>} warmEnv the environment of a warm api instance
 */
/** @typedef {import('../../functions/test/harness/emulators.ts').Emulators & { functions: string }} Emulators */

/** The emulators `firebase emulators:exec` started (test/harness/emulators.ts); the functions emulator runs the trigger. */
export async function emulatorsForBench() {
  const emulators = await discoverEmulators();
  if (!emulators.functions) throw new Error('the functions emulator is not running (needed for the Firestore trigger)');
  return /** @type {Emulators} */ (emulators);
}

/** This machine, and its load average now. */
export function describeMachine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: totalmem() / 1024 ** 3,
    node: process.version,
    os: `Linux ${release()}`,
    loadBefore: loadavg()[0],
  };
}

/**
 * Seeds the data and starts the stand-in servers. Background triggers stay off (only
 * the trigger-lag section turns them on): elsewhere they would share the 2 cores with
 * what is timed.
 * @param {Emulators} emulators
 * @param {{ quick: boolean }} options
 * @returns {Promise<Bench>}
 */
export async function setUpBench(emulators, { quick }) {
  await setBackgroundTriggers(false);
  const runId = Date.now().toString(36);
  const seeded = await seed();
  const standIns = await startStandIns({ ...seeded, runId });
  // The bench process only sends the endpoints' requests; their floors run in the stand-ins.
  const ctx = {
    ...seeded,
    runId,
    emulators,
    mailFloor: () => Promise.reject(new Error('floors run in floor-runner.mjs')),
  };
  const warmEnv = {
    PUSH_TRANSPORT: 'outbox',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(standIns.mailPort),
    OTP_PER_IP_LIMIT: '1000000',
    OTP_PER_ADDRESS_LIMIT: '1000000',
    OTP_GLOBAL_LIMIT_PER_HOUR: '10000000',
  };
  return { plan: benchPlan(quick), emulators, ctx, specs: endpointSpecs(ctx), standIns, warmEnv };
}

/**
 * The warm api instance's environment, with `extra` on top.
 * @param {Bench} bench
 * @param {Record<string, string>} [extra]
 */
export const warmApiEnv = (bench, extra = {}) => functionEnv({ ...bench.warmEnv, ...extra });
