// @ts-check
// Section 2 (judged): warm latency of every endpoint at c=1 and c=16 against its
// floors, measured in the same run and interleaved with it: the HTTP floor (GET / of
// the same instance; for a large answer, a body of its size from the floor function),
// the Firestore floor (the floor runner) and, for reference, the same-host floor (the
// floor function, warm).
import { performance } from 'node:perf_hooks';
import { summarize } from '../../lib/stats.mjs';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { cpuTimeMs, memoryOf, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { fmtMs, httpSender, keepAliveAgent, loop, takeIds } from '../measure.mjs';
import { floorPath, floorReadyPath, startFloorRunner } from '../stand-ins.mjs';

/**
 * @typedef {import('../host.mjs').Instance} Instance
 * @typedef {Awaited<ReturnType<typeof startFloorRunner>>} FloorRunner
 * @typedef {{ ok: boolean, detail?: string, ms?: number }} Outcome
 * @typedef {(req: import('../endpoints.mjs').BenchRequest) => Promise<Outcome>} Send
 * @typedef {import('../endpoints.mjs').EndpointSpec} EndpointSpec
 * @typedef {(spec: EndpointSpec, w: number, g: number) => Promise<Outcome>} SendSameHost
 * @typedef {{ send: () => Promise<Outcome>, pid: number }} HttpFloor the HTTP floor's request, sent, and the process serving it
 */

/**
 * Every endpoint on the warm instance `api`; also the instance's memory after each
 * concurrency.
 * @param {import('../setup.mjs').Bench} bench
 * @param {Instance} api
 */
export async function measureWarmLatency(bench, api) {
  const sameHost = await startFunction({
    source: bench.standIns.floorDir,
    env: bench.standIns.sameHostEnv,
    name: 'floor-warm',
  });
  try {
    await waitForSuccess(sameHost, floorReadyPath());
    const floorRunner = await startFloorRunner(bench.ctx, bench.standIns.mailPort);
    try {
      return await measureEndpoints(bench, api, sameHost, floorRunner);
    } finally {
      floorRunner.stop();
    }
  } finally {
    await stopFunction(sameHost);
  }
}

/**
 * @param {import('../setup.mjs').Bench} bench
 * @param {Instance} api
 * @param {Instance} sameHost
 * @param {FloorRunner} floorRunner
 */
async function measureEndpoints(bench, api, sameHost, floorRunner) {
  const rows = [];
  const memory = [];
  for (const concurrency of [1, 16]) {
    const agent = keepAliveAgent(concurrency);
    const send = httpSender(api.url, agent);
    const sameHostAgent = keepAliveAgent(concurrency);
    const toSameHost = httpSender(sameHost.url, sameHostAgent);
    /** @type {SendSameHost} The endpoint's request (method, headers, body) sent to the same-host floor. */
    const sendSameHost = (spec, w, g) => {
      const req = spec.request(w, g);
      return toSameHost({ ...req, path: floorPath(spec.name, w, g) });
    };
    for (const spec of bench.specs) {
      // The functions emulator re-enables triggers whenever it reloads the functions.
      await setBackgroundTriggers(false);
      // Requests that time out on the emulator's locks take 30 s each: one short round.
      const batches = spec.emulatorLocks
        ? { warmup: 0, rounds: 1, http: concurrency, endpoint: concurrency, floor: concurrency }
        : bench.plan.warm[16];
      const warmup = concurrency === 1 ? bench.plan.warm[1].warmup : batches.warmup;
      await loop(concurrency, warmup, (w, g) => send(spec.request(w, g)));
      await floorRunner.run(spec.name, concurrency, warmup);
      await loop(concurrency, warmup, (w, g) => sendSameHost(spec, w, g));
      // GET / of the instance, or for a large answer a body of its size from the same-host floor function.
      const httpRequest = spec.httpFloor?.() ?? { method: 'GET', path: '/' };
      /** @type {HttpFloor} */
      const http = spec.httpFloor
        ? { send: () => toSameHost(httpRequest), pid: sameHost.pid }
        : { send: () => send(httpRequest), pid: api.pid };
      const measured =
        concurrency === 1
          ? await interleavedSequential(api, sameHost, spec, floorRunner, send, sendSameHost, http, bench.plan.warm[1])
          : await interleavedBatches(api, sameHost, spec, floorRunner, send, sendSameHost, http, batches, concurrency);
      const row = warmRow(spec, concurrency, measured);
      rows.push(row);
      logWarm(row);
    }
    agent.destroy();
    sameHostAgent.destroy();
    memory.push({ stage: `after warm latency at c=${concurrency}`, ...memoryOf(api.pid) });
  }
  return { rows, memory };
}

/**
 * One endpoint at concurrency 1: request by request, the endpoint and its Firestore
 * floor alternate (and GET / every other time), so that whatever else the machine is
 * doing hits both alike. CPU time is read from /proc around each operation.
 * @param {Instance} api
 * @param {Instance} sameHost
 * @param {EndpointSpec} spec
 * @param {FloorRunner} floorRunner
 * @param {Send} send
 * @param {SendSameHost} sendSameHost
 * @param {HttpFloor} http
 * @param {{ endpoint: number }} plan
 */
async function interleavedSequential(api, sameHost, spec, floorRunner, send, sendSameHost, http, plan) {
  /** @type {Record<Kind, number[]>} */
  const samples = { endpoint: [], floor: [], http: [], sameHost: [] };
  const cpu = { endpoint: 0, floor: 0, http: 0, sameHost: 0 };
  const failed = { http: 0, endpoint: 0, floor: 0, sameHost: 0 };
  /** @type {string[]} */
  const failures = [];
  /**
   * @param {Kind} kind
   * @param {number} pid
   * @param {() => Promise<Outcome>} operation
   */
  const timed = async (kind, pid, operation) => {
    const before = cpuTimeMs(pid);
    const t0 = performance.now();
    const outcome = await operation();
    const ms = outcome.ms ?? performance.now() - t0;
    cpu[kind] += cpuTimeMs(pid) - before;
    if (outcome.ok) samples[kind].push(ms);
    else {
      failed[kind]++;
      if (failures.length < 3) failures.push(outcome.detail ?? 'failed');
    }
  };
  const endpointOnce = () => {
    const g = takeIds(1);
    return timed('endpoint', api.pid, () => send(spec.request(0, g)));
  };
  const floorOnce = () =>
    timed('floor', floorRunner.pid, async () => {
      const result = await floorRunner.run(spec.name, 1, 1);
      return result.failed ? { ok: false, detail: result.failures[0] } : { ok: true, ms: result.latencies[0] };
    });
  const sameHostOnce = () => {
    const g = takeIds(1);
    return timed('sameHost', sameHost.pid, () => sendSameHost(spec, 0, g));
  };
  for (let i = 0; i < plan.endpoint; i++) {
    if (i % 2 === 0) await timed('http', http.pid, http.send);
    const order = i % 2 === 0 ? [endpointOnce, floorOnce, sameHostOnce] : [sameHostOnce, floorOnce, endpointOnce];
    for (const once of order) await once();
  }
  const per = (/** @type {Kind} */ kind) => cpu[kind] / Math.max(1, samples[kind].length + failed[kind]);
  return {
    samples,
    failed,
    failures,
    cpuPerRequest: { endpoint: per('endpoint'), http: per('http'), firestore: per('floor'), sameHost: per('sameHost') },
  };
}

/** @typedef {'endpoint' | 'floor' | 'http' | 'sameHost'} Kind */

/**
 * One endpoint at concurrency > 1: small batches of each, interleaved round by round.
 * @param {Instance} api
 * @param {Instance} sameHost
 * @param {EndpointSpec} spec
 * @param {FloorRunner} floorRunner
 * @param {Send} send
 * @param {SendSameHost} sendSameHost
 * @param {HttpFloor} http
 * @param {{ rounds: number, http: number, endpoint: number, floor: number }} plan
 * @param {number} concurrency
 */
async function interleavedBatches(api, sameHost, spec, floorRunner, send, sendSameHost, http, plan, concurrency) {
  /** @type {Record<Kind, number[]>} */
  const samples = { endpoint: [], floor: [], http: [], sameHost: [] };
  const cpu = {
    endpoint: { cpuMs: 0, n: 0 },
    floor: { cpuMs: 0, n: 0 },
    http: { cpuMs: 0, n: 0 },
    sameHost: { cpuMs: 0, n: 0 },
  };
  const failed = { http: 0, endpoint: 0, floor: 0, sameHost: 0 };
  /** @type {string[]} */
  const failures = [];
  /**
   * @template {{ latencies: number[], failed: number }} T
   * @param {number} pid
   * @param {{ cpuMs: number, n: number }} account
   * @param {() => Promise<T>} body
   */
  const charged = async (pid, account, body) => {
    const before = cpuTimeMs(pid);
    const result = await body();
    account.cpuMs += cpuTimeMs(pid) - before;
    account.n += result.latencies.length + result.failed;
    return result;
  };
  for (let round = 0; round < plan.rounds; round++) {
    const h = await charged(http.pid, cpu.http, () => loop(concurrency, plan.http, http.send));
    const e = await charged(api.pid, cpu.endpoint, () =>
      loop(concurrency, plan.endpoint, (w, g) => send(spec.request(w, g))),
    );
    const f = await charged(floorRunner.pid, cpu.floor, () => floorRunner.run(spec.name, concurrency, plan.floor));
    const sh = await charged(sameHost.pid, cpu.sameHost, () =>
      loop(concurrency, plan.endpoint, (w, g) => sendSameHost(spec, w, g)),
    );
    samples.http.push(...h.latencies);
    samples.endpoint.push(...e.latencies);
    samples.floor.push(...f.latencies);
    samples.sameHost.push(...sh.latencies);
    failures.push(...h.failures, ...e.failures, ...f.failures, ...sh.failures);
    failed.http += h.failed;
    failed.endpoint += e.failed;
    failed.floor += f.failed;
    failed.sameHost += sh.failed;
  }
  const per = (/** @type {{ cpuMs: number, n: number }} */ account) => account.cpuMs / Math.max(1, account.n);
  return {
    samples,
    failed,
    failures,
    cpuPerRequest: {
      endpoint: per(cpu.endpoint),
      http: per(cpu.http),
      firestore: per(cpu.floor),
      sameHost: per(cpu.sameHost),
    },
  };
}

/**
 * An endpoint's row: percentiles, ratios to the floors (p50 and CPU per request).
 * @param {EndpointSpec} spec
 * @param {number} concurrency
 * @param {Awaited<ReturnType<typeof interleavedSequential>>} measured
 */
function warmRow(spec, concurrency, { samples, failed, failures, cpuPerRequest }) {
  const endpoint = summarize(samples.endpoint);
  const firestore = summarize(samples.floor);
  const http = summarize(samples.http);
  const sameHost = summarize(samples.sameHost);
  return {
    name: spec.name,
    concurrency,
    emulatorLocks: Boolean(spec.emulatorLocks),
    endpoint,
    firestore,
    http,
    sameHost,
    ratio: endpoint.p50 / (http.p50 + firestore.p50),
    sameHostRatio: endpoint.p50 / sameHost.p50,
    cpuPerRequest,
    cpuRatio: cpuPerRequest.endpoint / (cpuPerRequest.http + cpuPerRequest.firestore),
    sameHostCpuRatio: cpuPerRequest.endpoint / cpuPerRequest.sameHost,
    /** @type {string} */
    floorLabel: spec.floorLabel,
    failed,
    attempted: samples.endpoint.length + failed.endpoint,
    failures: failures.slice(0, 3),
  };
}

/** @param {ReturnType<typeof warmRow>} row */
function logWarm({
  name,
  concurrency,
  endpoint,
  http,
  firestore,
  ratio,
  cpuPerRequest,
  cpuRatio,
  sameHost,
  sameHostRatio,
  failed,
  failures,
}) {
  console.log(
    `  c=${String(concurrency).padStart(2)}  ${name.padEnd(40)} p50 ${fmtMs(endpoint.p50).padStart(6)} ms  floors ${fmtMs(http.p50)} + ${fmtMs(firestore.p50)} ms  ratio ${ratio.toFixed(2)}` +
      `  (CPU/req ${fmtMs(cpuPerRequest.endpoint)} vs ${fmtMs(cpuPerRequest.http)} + ${fmtMs(cpuPerRequest.firestore)} ms: ${cpuRatio.toFixed(2)})  same-host floor ${fmtMs(sameHost.p50)} ms: ${sameHostRatio.toFixed(2)}` +
      (failed.http + failed.endpoint + failed.floor + failed.sameHost
        ? `  FAILED endpoint ${failed.endpoint}, floor ${failed.floor}, same-host ${failed.sameHost}, GET / ${failed.http}: ${failures[0]}`
        : ''),
  );
}
