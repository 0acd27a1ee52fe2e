// The benchmark proper, run inside `firebase emulators:exec` by scripts/bench.mjs.
// The functions are hosted as Cloud Functions hosts them (functions-framework on the
// built code, a process per instance) against the Firestore and Auth emulators; the
// functions emulator only runs the Firestore trigger (section 3). Emulator hosts come
// from the environment emulators:exec sets, so any firebase.json works.
//   0. module load   1. cold start   2. warm latency   2b. FIRESTORE_PREFER_REST
//   3. trigger lag   4. throughput   5. deploy size
// Writes BENCHMARKS.md and .cache/bench/results.json (the outer script prints the
// two summary lines from it, after the emulators have shut down).
import autocannon from 'autocannon';
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { cacheDir, functionsDir, repoRoot } from '../lib/paths.mjs';
import { median, summarize } from '../lib/stats.mjs';
import { SCHEDULES, db, endpointSpecs, requireFn, seed, seedDataSize } from './endpoints.mjs';
import {
  API_SOURCE,
  coldStart,
  cpuTimeMs,
  functionEnv,
  logDir,
  memoryOf,
  moduleLoad,
  prepareFloorSource,
  setPlatformEnv,
  startFunction,
  stopFunction,
  waitForSuccess,
} from './host.mjs';
import { closedLoop, fmtMb, fmtMs, keepAliveAgent, request, sleep } from './measure.mjs';
import { CPU_CATEGORIES, cpuByCategory } from './profile.mjs';
import { deploySize } from './size.mjs';
import { writeReport } from './report.mjs';

const QUICK = process.argv.includes('--quick');
const scale = (full, quick) => (QUICK ? quick : full);
const PLAN = {
  moduleLoadRuns: scale(5, 2),
  coldRuns: scale(15, 2),
  coldRestRuns: scale(5, 1),
  warm: {
    // c=1: request by request, endpoint and floor alternating (GET / every other time).
    1: { warmup: 10, endpoint: scale(100, 20) },
    // c=16: rounds of small batches, interleaved.
    16: { warmup: 48, rounds: scale(16, 2), http: scale(32, 32), endpoint: scale(48, 48), floor: scale(48, 48) },
  },
  restEndpoints: ['GET /kiosk/{id}', 'GET /user/{id}', 'POST /kiosk/transaction'],
  // gRPC and REST instances alternate round by round.
  restWarm: { 1: { warmup: 10, rounds: scale(4, 2), requests: scale(25, 10) }, 16: { warmup: 48, rounds: scale(4, 2), requests: scale(64, 32) } },
  // One instance each of api and the same-host floor, profiled under the same c=16 load.
  cpuBreakdown: { concurrency: 16, warmup: scale(200, 48), requests: scale(800, 96) },
  lag: { sequential: scale(15, 3), bursts: scale(3, 1), burstSize: 16 },
  throughput: { users: [10, 1_000, 10_000], connections: [16, 64], seconds: scale(10, 3), repeats: scale(3, 1), warmupSeconds: scale(10, 2) },
};
const COLD_KIOSK = 1;
const COLD_PATH = `/kiosk/bench-kiosk-${COLD_KIOSK}`;

const started = new Date();
const startedAt = performance.now();
const log = (...args) => console.log(...args);
const elapsed = () => `${((performance.now() - startedAt) / 1000).toFixed(0)} s`;

// ---------------------------------------------------------------- discovery
async function discoverEmulators() {
  const missing = ['GCLOUD_PROJECT', 'FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_EMULATOR_HUB'].filter(
    (name) => !process.env[name],
  );
  if (missing.length) throw new Error(`run inside firebase emulators:exec (missing ${missing.join(', ')})`);
  const hub = `http://${process.env.FIREBASE_EMULATOR_HUB}`;
  const emulators = await (await fetch(`${hub}/emulators`)).json();
  if (!emulators.functions) throw new Error('the functions emulator is not running (needed for the Firestore trigger)');
  return {
    hub,
    functions: `${emulators.functions.host}:${emulators.functions.port}`,
    firestore: process.env.FIRESTORE_EMULATOR_HOST,
    auth: process.env.FIREBASE_AUTH_EMULATOR_HOST,
  };
}

async function setBackgroundTriggers(hub, enabled) {
  const action = enabled ? 'enableBackgroundTriggers' : 'disableBackgroundTriggers';
  const response = await fetch(`${hub}/functions/${action}`, { method: 'PUT' });
  if (!response.ok) throw new Error(`${action}: ${response.status}`);
}

// ---------------------------------------------------------------- mail server
/** An SMTP server in this process that accepts every mail (the OTP endpoint needs one). */
async function startMailServer() {
  const { SMTPServer } = requireFn('smtp-server');
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = server.server.address().port;
  return { port, received: () => received, close: () => new Promise((resolve) => server.close(resolve)) };
}

// ---------------------------------------------------------------- metadata server
/**
 * A stand-in for the platform's metadata server, which hands a deployed function its
 * access token. Only the REST transport (FIRESTORE_PREFER_REST) asks for one on the
 * emulator; gRPC to the emulator uses no credentials. The token is the emulator's
 * admin token "owner". Without this, REST cannot be measured here at all.
 */
async function startMetadataServer() {
  const server = http.createServer((req, res) => {
    res.setHeader('Metadata-Flavor', 'Google');
    const path = req.url.split('?')[0];
    if (path.endsWith('/service-accounts/default/token')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'owner', expires_in: 3600, token_type: 'Bearer' }));
    } else if (path.endsWith('/project/project-id')) res.end(process.env.GCLOUD_PROJECT);
    else if (path.endsWith('/universe/universe-domain')) res.end('googleapis.com');
    else if (path.endsWith('/service-accounts/default/email')) res.end(`bench@${process.env.GCLOUD_PROJECT}.iam.gserviceaccount.com`);
    else if (path === '/computeMetadata/v1/instance' || path === '/computeMetadata/v1/instance/') res.end('{}');
    else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

// ---------------------------------------------------------------- 0. module load
function measureModuleLoad(floorDir) {
  const lib = (file) => join(functionsDir, 'lib', file);
  // Deployed, each function's instances load lib/index.js with FUNCTION_TARGET = its name.
  const cases = [
    { name: 'api: lib/index.js, FUNCTION_TARGET=api', entries: [lib('index.js')], cwd: functionsDir, functionTarget: 'api' },
    { name: 'transactionEffects: lib/index.js, FUNCTION_TARGET=transactionEffects', entries: [lib('index.js')], cwd: functionsDir, functionTarget: 'transactionEffects' },
    { name: 'provisionUserProfile: lib/index.js, FUNCTION_TARGET=provisionUserProfile', entries: [lib('index.js')], cwd: functionsDir, functionTarget: 'provisionUserProfile' },
    { name: 'lib/index.js without FUNCTION_TARGET (all three, as deploy-time discovery loads it)', entries: [lib('index.js')], cwd: functionsDir },
    { name: 'floor function (firebase-functions/v2/https + firebase-admin/firestore)', entries: [join(floorDir, 'index.js')], cwd: floorDir, functionTarget: 'api' },
    // Loaded on the first Firestore call, not at import: the transport's own cost.
    { name: 'Firestore transport, gRPC: google-gax', entries: ['google-gax'], cwd: functionsDir },
    { name: 'Firestore transport, REST: google-gax/build/src/fallback', entries: ['google-gax/build/src/fallback'], cwd: functionsDir },
  ];
  const runs = new Map(cases.map((c) => [c.name, []]));
  const env = functionEnv();
  for (let i = 0; i < PLAN.moduleLoadRuns; i++) {
    for (const c of i % 2 ? [...cases].reverse() : cases) runs.get(c.name).push(moduleLoad({ entries: c.entries, cwd: c.cwd, env, functionTarget: c.functionTarget }));
  }
  return cases.map((c) => {
    const samples = runs.get(c.name);
    return {
      name: c.name,
      ms: median(samples.map((s) => s.ms)),
      modules: samples[0].modules,
      rssKb: median(samples.map((s) => s.rssKb)),
      heavy: samples[0].heavy,
      runs: samples.length,
    };
  });
}

// The cold-start kiosk's schedule (endpoints.mjs), and one only opening_hours reads.
const PLAIN_SCHEDULE = SCHEDULES[COLD_KIOSK % SCHEDULES.length];
const LIBRARY_SCHEDULE = 'Mo-Fr 06:00-22:00; Sa 08:00-02:00';

/**
 * What the route-specific modules cost the first request that needs them, in a fresh
 * process that has loaded the entry point (median of the runs): what a cold
 * GET /kiosk/{id} pays on top of its floor, and what the lazy loading spares the rest.
 */
function measureFirstUse() {
  const code = `
    require('./lib/index.js');
    const time = (f) => { const t0 = performance.now(); f(); return performance.now() - t0; };
    const out = {};
    const { isOpenAt } = require('./lib/domain/openingHours.js');
    const where = { latitude: 48.5, longitude: 8.5 };
    out.weeklyFirst = time(() => isOpenAt('${PLAIN_SCHEDULE}', 'Europe/Berlin', where, new Date()));
    out.weeklyWarm = time(() => isOpenAt('${PLAIN_SCHEDULE}', 'Europe/Berlin', where, new Date()));
    out.openingHoursLoad = time(() => require('opening_hours'));
    out.libraryFirst = time(() => isOpenAt('${LIBRARY_SCHEDULE}', 'Europe/Berlin', where, new Date()));
    const { validateBody } = require('./lib/http/validation.js');
    out.ajvFirst = time(() => validateBody('transactionBody', { kioskId: 'k', userId: 'u', plasticCount: 1, metalCount: 0 }));
    out.nodemailerLoad = time(() => require('nodemailer'));
    process.stdout.write(JSON.stringify(out));
  `;
  const runs = [];
  for (let i = 0; i < PLAN.moduleLoadRuns; i++) {
    const run = spawnSync(process.execPath, ['-e', code], { cwd: functionsDir, env: functionEnv(), encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`first-use measurement failed: ${run.stderr}`);
    runs.push(JSON.parse(run.stdout));
  }
  const m = (key) => median(runs.map((r) => r[key]));
  return [
    { name: `first openNow of a plain weekly schedule (src/domain/weeklySchedule.ts, \`${PLAIN_SCHEDULE}\`) + time-zone formatter (Intl, ICU data)`, paidBy: 'GET /kiosk/{id}, GET /kiosks, POST /kiosk/{id}/status, POST /admin/kiosks (first request)', ms: m('weeklyFirst') },
    { name: 'openNow once warm (parsed schedule cached)', paidBy: 'every kiosk view', ms: m('weeklyWarm') },
    { name: 'require opening_hours', paidBy: 'the first kiosk whose schedule is outside the plain weekly form (sunrise, holidays, months, times past midnight...)', ms: m('openingHoursLoad') },
    { name: `first parse by opening_hours (\`${LIBRARY_SCHEDULE}\`)`, paidBy: 'each new such schedule', ms: m('libraryFirst') },
    { name: 'ajv + ajv-formats load, first schema compiled', paidBy: 'routes with a body (first request of each schema)', ms: m('ajvFirst') },
    { name: 'require nodemailer', paidBy: 'POST /send-otp-email (first mail)', ms: m('nodemailerLoad') },
  ];
}

// ---------------------------------------------------------------- 1. cold start
/**
 * The timed requests: GET /kiosk/{id} (public; its answer's openNow needs opening_hours,
 * so the route pays for that library) and GET /user/{id} (ID token + one read; no
 * route-specific module). Each against a floor doing the same work (floor.js).
 */
const coldRequests = (ctx) => [
  { name: 'GET /kiosk/{id}', path: COLD_PATH },
  { name: 'GET /user/{id}', path: `/user/${ctx.authUsers[0]}`, headers: { authorization: `Bearer ${ctx.tokens[0]}` } },
];

async function measureColdStarts(floorDir, runs, extraEnv, requests) {
  const variants = [
    { key: 'api', source: API_SOURCE, env: functionEnv({ PUSH_TRANSPORT: 'outbox', ...extraEnv }) },
    { key: 'floor', source: floorDir, env: functionEnv(extraEnv) },
  ];
  const samples = new Map(requests.map((r) => [r.name, { api: [], floor: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const req of requests) {
      for (const variant of i % 2 ? [...variants].reverse() : variants) {
        const sample = await coldStart({ source: variant.source, env: variant.env, path: req.path, headers: req.headers, name: `cold-${variant.key}` });
        samples.get(req.name)[variant.key].push(sample);
        await sleep(300);
      }
    }
  }
  const sum = (list) => ({
    runs: list.length,
    listenMs: median(list.map((s) => s.listenMs)),
    firstResponseMs: median(list.map((s) => s.firstResponseMs)),
    cpuMs: median(list.map((s) => s.cpuMs)),
    hwmKb: median(list.map((s) => s.hwmKb)),
    samplesMs: list.map((s) => Math.round(s.firstResponseMs)),
  });
  return requests.map((req) => {
    const api = sum(samples.get(req.name).api);
    const floor = sum(samples.get(req.name).floor);
    return { request: req.name, path: req.path, api, floor, ratio: api.firstResponseMs / floor.firstResponseMs };
  });
}

// ---------------------------------------------------------------- 2. warm latency
/** The path that has the same-host floor (floor.js) run endpoint `name`'s floor operation. */
const floorPath = (name, w, g) => `/floor?name=${encodeURIComponent(name)}&w=${w}&g=${g}`;

function httpSender(baseUrl, agent) {
  return async (req) => {
    const response = await request({ url: `${baseUrl}${req.path}`, method: req.method, headers: req.headers, body: req.body, agent });
    const ok = response.status === 200 || response.status === 201;
    return { ok, detail: `${req.method} ${req.path} → ${response.status} ${response.body.slice(0, 160)}` };
  };
}

let sequence = 0;
/** Runs `total` operations at `concurrency`; ids continue across calls so every request is unique. */
async function loop(concurrency, total, operation) {
  const base = sequence;
  sequence += total;
  return closedLoop({ concurrency, total, operation: (w, i) => operation(w, base + i) });
}

/** The Firestore floors run in a child process (scripts/bench/floor-runner.mjs). */
async function startFloorRunner(ctx, mailPort) {
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), 'floor-runner.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let ready;
  const isReady = new Promise((resolve) => (ready = resolve));
  child.on('message', (message) => {
    if (message.type === 'ready') ready();
    else if (message.type === 'result') {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  child.on('exit', (code) => {
    for (const resolve of pending.values()) resolve({ latencies: [], failed: 1, failures: [`floor runner exited (${code})`] });
  });
  const { kiosks, users, authUsers, tokens, adminToken, revoked, runId } = ctx;
  child.send({ type: 'init', ctx: { kiosks, users, authUsers, tokens, adminToken, revoked, runId }, mailPort });
  await isReady;
  let nextId = 0;
  return {
    /** Like loop(), for the floor of endpoint `name`. */
    run(name, concurrency, total) {
      const base = sequence;
      sequence += total;
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ type: 'run', id, name, concurrency, total, base });
      });
    },
    pid: child.pid,
    stop: () => child.kill(),
  };
}

/**
 * One endpoint at concurrency 1: request by request, the endpoint and its Firestore
 * floor alternate (and GET / every other time), so that whatever else the machine is
 * doing hits both alike. CPU time is read from /proc around each operation.
 */
async function interleavedSequential(api, sameHost, spec, floorRunner, send, sendSameHost, plan) {
  const samples = { endpoint: [], floor: [], http: [], sameHost: [] };
  const cpu = { endpoint: 0, floor: 0, http: 0, sameHost: 0 };
  const failed = { http: 0, endpoint: 0, floor: 0, sameHost: 0 };
  const failures = [];
  const timed = async (kind, pid, operation) => {
    const before = cpuTimeMs(pid);
    const t0 = performance.now();
    const outcome = await operation();
    const ms = outcome.ms ?? performance.now() - t0;
    cpu[kind] += cpuTimeMs(pid) - before;
    if (outcome.ok) samples[kind].push(ms);
    else {
      failed[kind]++;
      if (failures.length < 3) failures.push(outcome.detail);
    }
  };
  const endpointOnce = () => {
    const g = sequence++;
    return timed('endpoint', api.pid, () => send(spec.request(0, g)));
  };
  const floorOnce = () =>
    timed('floor', floorRunner.pid, async () => {
      const result = await floorRunner.run(spec.name, 1, 1);
      return result.failed ? { ok: false, detail: result.failures[0] } : { ok: true, ms: result.latencies[0] };
    });
  const sameHostOnce = () => {
    const g = sequence++;
    return timed('sameHost', sameHost.pid, () => sendSameHost(spec, 0, g));
  };
  for (let i = 0; i < plan.endpoint; i++) {
    if (i % 2 === 0) await timed('http', api.pid, () => send({ method: 'GET', path: '/' }));
    const order = i % 2 === 0 ? [endpointOnce, floorOnce, sameHostOnce] : [sameHostOnce, floorOnce, endpointOnce];
    for (const once of order) await once();
  }
  const per = (kind) => cpu[kind] / Math.max(1, samples[kind].length + failed[kind]);
  return { samples, failed, failures, cpuPerRequest: { endpoint: per('endpoint'), http: per('http'), firestore: per('floor'), sameHost: per('sameHost') } };
}

/** One endpoint at concurrency > 1: small batches of each, interleaved round by round. */
async function interleavedBatches(api, sameHost, spec, floorRunner, send, sendSameHost, plan, concurrency) {
  const samples = { endpoint: [], floor: [], http: [], sameHost: [] };
  const cpu = { endpoint: { cpuMs: 0, n: 0 }, floor: { cpuMs: 0, n: 0 }, http: { cpuMs: 0, n: 0 }, sameHost: { cpuMs: 0, n: 0 } };
  const failed = { http: 0, endpoint: 0, floor: 0, sameHost: 0 };
  const failures = [];
  const charged = async (pid, account, body) => {
    const before = cpuTimeMs(pid);
    const result = await body();
    account.cpuMs += cpuTimeMs(pid) - before;
    account.n += result.latencies.length + result.failed;
    return result;
  };
  for (let round = 0; round < plan.rounds; round++) {
    const h = await charged(api.pid, cpu.http, () => loop(concurrency, plan.http, () => send({ method: 'GET', path: '/' })));
    const e = await charged(api.pid, cpu.endpoint, () => loop(concurrency, plan.endpoint, (w, g) => send(spec.request(w, g))));
    const f = await charged(floorRunner.pid, cpu.floor, () => floorRunner.run(spec.name, concurrency, plan.floor));
    const sh = await charged(sameHost.pid, cpu.sameHost, () => loop(concurrency, plan.endpoint, (w, g) => sendSameHost(spec, w, g)));
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
  const per = (account) => account.cpuMs / Math.max(1, account.n);
  return { samples, failed, failures, cpuPerRequest: { endpoint: per(cpu.endpoint), http: per(cpu.http), firestore: per(cpu.floor), sameHost: per(cpu.sameHost) } };
}

async function measureWarm(api, sameHost, specs, floorRunner, memory, hub) {
  const results = [];
  for (const concurrency of [1, 16]) {
    const agent = keepAliveAgent(concurrency);
    const send = httpSender(api.url, agent);
    const sameHostAgent = keepAliveAgent(concurrency);
    const toSameHost = httpSender(sameHost.url, sameHostAgent);
    /** The endpoint's request (method, headers, body) sent to the same-host floor. */
    const sendSameHost = (spec, w, g) => {
      const req = spec.request(w, g);
      return toSameHost({ ...req, path: floorPath(spec.name, w, g) });
    };
    for (const spec of specs) {
      // The functions emulator re-enables triggers whenever it reloads the functions.
      await setBackgroundTriggers(hub, false);
      // Requests that time out on the emulator's locks take 30 s each: one short round.
      const plan =
        spec.emulatorLocks && concurrency > 1
          ? { warmup: 0, rounds: 1, http: concurrency, endpoint: concurrency, floor: concurrency }
          : PLAN.warm[concurrency];
      await loop(concurrency, plan.warmup, (w, g) => send(spec.request(w, g)));
      await floorRunner.run(spec.name, concurrency, plan.warmup);
      await loop(concurrency, plan.warmup, (w, g) => sendSameHost(spec, w, g));
      const measured =
        concurrency === 1
          ? await interleavedSequential(api, sameHost, spec, floorRunner, send, sendSameHost, plan)
          : await interleavedBatches(api, sameHost, spec, floorRunner, send, sendSameHost, plan, concurrency);
      const { samples, failed, failures, cpuPerRequest } = measured;
      const endpoint = summarize(samples.endpoint);
      const firestore = summarize(samples.floor);
      const httpFloor = summarize(samples.http);
      const sameHostFloor = summarize(samples.sameHost);
      const ratio = endpoint.p50 / (httpFloor.p50 + firestore.p50);
      const sameHostRatio = endpoint.p50 / sameHostFloor.p50;
      const cpuRatio = cpuPerRequest.endpoint / (cpuPerRequest.http + cpuPerRequest.firestore);
      const sameHostCpuRatio = cpuPerRequest.endpoint / cpuPerRequest.sameHost;
      const attempted = samples.endpoint.length + failed.endpoint;
      results.push({
        name: spec.name,
        concurrency,
        emulatorLocks: Boolean(spec.emulatorLocks),
        endpoint,
        firestore,
        http: httpFloor,
        sameHost: sameHostFloor,
        ratio,
        sameHostRatio,
        cpuPerRequest,
        cpuRatio,
        sameHostCpuRatio,
        floorLabel: spec.floorLabel,
        failed,
        attempted,
        failures: failures.slice(0, 3),
      });
      log(
        `  c=${String(concurrency).padStart(2)}  ${spec.name.padEnd(40)} p50 ${fmtMs(endpoint.p50).padStart(6)} ms  floors ${fmtMs(httpFloor.p50)} + ${fmtMs(firestore.p50)} ms  ratio ${ratio.toFixed(2)}` +
          `  (CPU/req ${fmtMs(cpuPerRequest.endpoint)} vs ${fmtMs(cpuPerRequest.http)} + ${fmtMs(cpuPerRequest.firestore)} ms: ${cpuRatio.toFixed(2)})  same-host floor ${fmtMs(sameHostFloor.p50)} ms: ${sameHostRatio.toFixed(2)}` +
          (failed.http + failed.endpoint + failed.floor + failed.sameHost
            ? `  FAILED endpoint ${failed.endpoint}, floor ${failed.floor}, same-host ${failed.sameHost}, GET / ${failed.http}: ${failures[0]}`
            : ''),
      );
    }
    agent.destroy();
    sameHostAgent.destroy();
    memory.push({ stage: `after warm latency at c=${concurrency}`, ...memoryOf(api.pid) });
  }
  return results;
}

// ---------------------------------------------------------------- 2b. PREFER_REST, warm
async function measureRestWarm(grpcApi, restApi, specs, hub) {
  const chosen = specs.filter((spec) => PLAN.restEndpoints.includes(spec.name));
  chosen.unshift({ name: 'GET /', request: () => ({ method: 'GET', path: '/' }) });
  const rows = [];
  for (const concurrency of [1, 16]) {
    const plan = PLAN.restWarm[concurrency];
    const agents = [keepAliveAgent(concurrency), keepAliveAgent(concurrency)];
    const senders = { grpc: httpSender(grpcApi.url, agents[0]), rest: httpSender(restApi.url, agents[1]) };
    for (const spec of chosen) {
      await setBackgroundTriggers(hub, false);
      const samples = { grpc: [], rest: [] };
      for (const mode of ['grpc', 'rest']) await loop(concurrency, plan.warmup, (w, g) => senders[mode](spec.request(w, g)));
      for (let round = 0; round < plan.rounds; round++) {
        for (const mode of round % 2 ? ['rest', 'grpc'] : ['grpc', 'rest']) {
          samples[mode].push(...(await loop(concurrency, plan.requests, (w, g) => senders[mode](spec.request(w, g)))).latencies);
        }
      }
      const grpc = summarize(samples.grpc);
      const rest = summarize(samples.rest);
      rows.push({ name: spec.name, concurrency, grpc, rest, ratio: rest.p50 / grpc.p50 });
      log(`  c=${String(concurrency).padStart(2)}  ${spec.name.padEnd(28)} gRPC p50 ${fmtMs(grpc.p50)} ms  REST p50 ${fmtMs(rest.p50)} ms`);
    }
    agents.forEach((agent) => agent.destroy());
  }
  return rows;
}

// ---------------------------------------------------------------- 3. trigger lag
async function measureTriggerLag(api, ctx) {
  const LAG_USERS = PLAN.lag.burstSize;
  await writeAll(Array.from({ length: LAG_USERS }, (_, i) => [db().collection('users').doc(`lag-user-${i}`), fleetUserDoc(`Lag user ${i}`, `lag-device-${i}`)]));
  const agent = keepAliveAgent(LAG_USERS);
  const submit = async (i, g) => {
    const kiosk = ctx.kiosks[i % ctx.kiosks.length];
    const response = await request({
      url: `${api.url}/kiosk/transaction`,
      method: 'POST',
      headers: { 'x-api-key': kiosk.apiKey, 'idempotency-key': `${ctx.runId}-lag-${g}` },
      body: { kioskId: kiosk.id, userId: `lag-user-${i}`, plasticCount: 2, metalCount: 1 },
      agent,
    });
    if (response.status !== 200) throw new Error(`transaction → ${response.status} ${response.body}`);
    return { id: JSON.parse(response.body).transaction.id, acceptedAt: Date.now() };
  };
  const awaitEffects = async (accepted, timeoutMs = 120_000) => {
    const pending = new Map(accepted.map((a) => [a.id, a]));
    const lags = [];
    const deadline = Date.now() + timeoutMs;
    while (pending.size > 0) {
      const snaps = await db().getAll(...[...pending.keys()].map((id) => db().collection('transactions').doc(id)));
      for (const snap of snaps) {
        const completedAt = snap.get('effects.completedAt');
        if (completedAt) {
          lags.push(completedAt.toMillis() - pending.get(snap.id).acceptedAt);
          pending.delete(snap.id);
        }
      }
      if (pending.size === 0) break;
      if (Date.now() > deadline) throw new Error(`${pending.size} transactions without effects.completedAt after ${timeoutMs / 1000} s`);
      await sleep(50);
    }
    return lags;
  };

  await setBackgroundTriggers(ctx.emulators.hub, true);
  try {
    const sequential = [];
    for (let i = 0; i < PLAN.lag.sequential + 2; i++) {
      const lags = await awaitEffects([await submit(i % LAG_USERS, sequence++)]);
      if (i >= 2) sequential.push(...lags); // the first two start the emulator's worker
    }
    const burst = [];
    for (let b = 0; b < PLAN.lag.bursts + 1; b++) {
      const accepted = await Promise.all(Array.from({ length: LAG_USERS }, (_, i) => submit(i, sequence++)));
      const lags = await awaitEffects(accepted);
      if (b > 0) burst.push(...lags); // the first burst starts the emulator's workers
    }
    return { c1: summarize(sequential), c16: summarize(burst) };
  } finally {
    agent.destroy();
    await setBackgroundTriggers(ctx.emulators.hub, false);
  }
}

// ---------------------------------------------------------------- 2c. CPU breakdown
const PROFILED_ENDPOINTS = ['GET /kiosk/{id}', 'POST /kiosk/transaction', 'POST /notify/topic'];
const PROFILER = join(dirname(fileURLToPath(import.meta.url)), 'cpu-profiler.cjs');

/** Waits for the profile the instance writes on its second SIGUSR2. */
async function profileWritten(file) {
  const deadline = performance.now() + 15_000;
  while (!existsSync(file)) {
    if (performance.now() > deadline) throw new Error(`no CPU profile at ${file}`);
    await sleep(50);
  }
  return file;
}

/**
 * The api and the same-host floor (floor.js doing the endpoint's Firestore work in
 * a minimal onRequest function), each in an instance of its own with the sampling
 * profiler preloaded, under the same c=16 load: CPU per request by who wrote the code.
 */
async function measureCpuBreakdown(specs, variants, floorDir) {
  const profileDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-cpu-'));
  const rows = [];
  try {
    for (const variant of variants) {
      const instance = await startFunction({
        source: variant.source,
        env: { ...variant.env, BENCH_CPU_PROFILE_DIR: profileDir, BENCH_CPU_PROFILE_NAME: variant.key },
        name: `cpu-${variant.key}`,
        nodeArgs: ['--require', PROFILER],
      });
      const agent = keepAliveAgent(PLAN.cpuBreakdown.concurrency);
      const send = httpSender(instance.url, agent);
      let profiles = 0;
      try {
        await waitForSuccess(instance, variant.readyPath);
        for (const name of PROFILED_ENDPOINTS) {
          const spec = specs.find((candidate) => candidate.name === name);
          const operation = (w, g) => send(variant.request(spec, w, g));
          await loop(PLAN.cpuBreakdown.concurrency, PLAN.cpuBreakdown.warmup, operation);
          process.kill(instance.pid, 'SIGUSR2');
          await sleep(300); // the profiler starts asynchronously
          const before = cpuTimeMs(instance.pid);
          const measured = await loop(PLAN.cpuBreakdown.concurrency, PLAN.cpuBreakdown.requests, operation);
          const processCpuMs = cpuTimeMs(instance.pid) - before;
          process.kill(instance.pid, 'SIGUSR2');
          const file = await profileWritten(join(profileDir, `${variant.key}-${++profiles}.cpuprofile`));
          const requests = measured.latencies.length + measured.failed;
          const byCategory = cpuByCategory(file, floorDir);
          rows.push({
            name,
            variant: variant.key,
            requests,
            failed: measured.failed,
            processCpuPerRequest: processCpuMs / requests,
            perRequest: Object.fromEntries(Object.entries(byCategory).map(([category, ms]) => [category, ms / requests])),
          });
          log(`  ${variant.key.padEnd(5)} ${name.padEnd(24)} ${(processCpuMs / requests).toFixed(2)} ms CPU/req; service code ${(byCategory[CPU_CATEGORIES[0]] / requests).toFixed(2)} ms/req${measured.failed ? `; FAILED ${measured.failed}` : ''}`);
        }
      } finally {
        agent.destroy();
        await stopFunction(instance);
      }
    }
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
  return rows;
}

// ---------------------------------------------------------------- 4. throughput
/**
 * Each data size is a project of its own in the same Firestore emulator, served by
 * a warm instance of its own, so the sizes can be measured in turn, round after
 * round: whatever else the machine does over the minutes of the section then hits
 * every size alike instead of reading as a trend with the data.
 */
async function measureThroughput(ctx, instanceEnv) {
  const { users: sizes, connections: connectionCounts, seconds, repeats, warmupSeconds } = PLAN.throughput;
  let n = 0; // one Idempotency-Key per request across every run
  const run = (target, connections, duration) =>
    autocannon({
      url: target.instance.url,
      connections,
      duration,
      timeout: 30,
      requests: [
        {
          setupRequest(req) {
            const kiosk = target.kiosks[Math.floor(Math.random() * target.kiosks.length)];
            const userId = `tp-user-${Math.floor(Math.random() * target.users)}`;
            const body = { kioskId: kiosk.id, userId, plasticCount: 1 + (n % 5), metalCount: n % 3 };
            const headers = { 'content-type': 'application/json', 'x-api-key': kiosk.apiKey, 'idempotency-key': `${ctx.runId}-tp-${n++}` };
            return { ...req, method: 'POST', path: '/kiosk/transaction', headers, body: JSON.stringify(body) };
          },
        },
      ],
    });
  const targets = [];
  try {
    for (const users of sizes) {
      const projectId = `${process.env.GCLOUD_PROJECT}-u${users}`;
      const seeded = await seedDataSize(projectId, users, ctx.runId);
      const instance = await startFunction({ source: API_SOURCE, env: functionEnv({ ...instanceEnv, GCLOUD_PROJECT: projectId }), name: `api-u${users}` });
      targets.push({ ...seeded, instance, runs: new Map(connectionCounts.map((connections) => [connections, []])) });
    }
    for (const target of targets) {
      await waitForSuccess(target.instance, '/');
      // The first seconds of sustained writes run slower (JIT of the instance).
      await run(target, 64, warmupSeconds);
    }
    for (let repeat = 0; repeat < repeats; repeat++) {
      const order = targets.map((_, i) => targets[(i + repeat) % targets.length]);
      for (const target of order) {
        for (const connections of repeat % 2 ? [...connectionCounts].reverse() : connectionCounts) {
          const result = await run(target, connections, seconds);
          target.runs.get(connections).push(result);
          log(`  users ${String(target.users).padStart(6)}  c=${String(connections).padStart(2)}  round ${repeat + 1}: ${(result['2xx'] / seconds).toFixed(0)} req/s  p50 ${result.latency.p50} ms  non-2xx ${result.non2xx}  errors ${result.errors}`);
        }
      }
    }
    const rows = [];
    for (const target of targets) {
      for (const [connections, results] of target.runs) {
        const total = (key) => results.reduce((sum, result) => sum + result[key], 0);
        const rates = results.map((result) => result['2xx'] / seconds);
        const statusCodes = {};
        for (const result of results) {
          for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + count;
        }
        rows.push({
          users: target.users,
          projectId: target.projectId,
          connections,
          seconds,
          perSecond: median(rates),
          runsPerSecond: rates,
          ok: total('2xx'),
          non2xx: total('non2xx'),
          errors: total('errors'),
          timeouts: total('timeouts'),
          p50: median(results.map((result) => result.latency.p50)),
          p99: median(results.map((result) => result.latency.p99)),
          statusCodes,
          memory: memoryOf(target.instance.pid),
        });
      }
    }
    for (const row of rows) {
      log(`  users ${String(row.users).padStart(6)}  c=${String(row.connections).padStart(2)}  median ${row.perSecond.toFixed(0)} req/s (runs ${row.runsPerSecond.map((rate) => rate.toFixed(0)).join(', ')})  p50 ${row.p50} ms  p99 ${row.p99} ms  statuses ${JSON.stringify(row.statusCodes)}`);
    }
    return rows;
  } finally {
    for (const target of targets) await stopFunction(target.instance);
  }
}

const logCold = (row) =>
  log(
    `  ${row.request.padEnd(16)} api ${fmtMs(row.api.firstResponseMs)} ms (listening ${fmtMs(row.api.listenMs)}, CPU ${fmtMs(row.api.cpuMs)}, peak ${fmtMb(row.api.hwmKb)} MiB)` +
      `  floor ${fmtMs(row.floor.firstResponseMs)} ms (listening ${fmtMs(row.floor.listenMs)}, CPU ${fmtMs(row.floor.cpuMs)}, peak ${fmtMb(row.floor.hwmKb)} MiB)  ratio ${row.ratio.toFixed(2)}`,
  );

// ---------------------------------------------------------------- main
async function main() {
  const emulators = await discoverEmulators();
  const runId = Date.now().toString(36);
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: totalmem() / 1024 ** 3,
    node: process.version,
    os: `Linux ${release()}`,
    loadBefore: loadavg()[0],
  };
  log(`Benchmark: project ${process.env.GCLOUD_PROJECT}, Firestore ${emulators.firestore}, Auth ${emulators.auth}, functions emulator ${emulators.functions}${QUICK ? ' (quick)' : ''}`);
  log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb.toFixed(1)} GB, Node ${machine.node}, load ${machine.loadBefore.toFixed(2)}`);
  log(`functions-framework logs: ${logDir()}`);

  // Triggers only in section 3: elsewhere they would share the 2 cores with what is timed.
  await setBackgroundTriggers(emulators.hub, false);
  log(`Seeding... (${elapsed()})`);
  const seeded = await seed();
  const mail = await startMailServer();
  const metadata = await startMetadataServer();
  setPlatformEnv({ GCE_METADATA_HOST: metadata.host });
  const ctx = { ...seeded, runId, emulators, mailFloor: () => Promise.reject(new Error('floors run in floor-runner.mjs')) };
  const specs = endpointSpecs(ctx);
  const floorDir = prepareFloorSource();
  const results = { started: started.toISOString(), quick: QUICK, machine, plan: PLAN, emulators };

  log(`\n0. Module load (require of the entry point, fresh process, median of ${PLAN.moduleLoadRuns}) (${elapsed()})`);
  results.moduleLoad = measureModuleLoad(floorDir);
  for (const row of results.moduleLoad) log(`  ${fmtMs(row.ms).padStart(6)} ms  ${String(row.modules).padStart(4)} modules  ${row.name}  heavy: ${row.heavy.join(', ') || 'none'}`);
  results.firstUse = measureFirstUse();
  for (const row of results.firstUse) log(`  ${fmtMs(row.ms).padStart(6)} ms  first use: ${row.name}`);

  log(`\n1. Cold start (spawn → first 200, median of ${PLAN.coldRuns}, api and floor alternating) (${elapsed()})`);
  results.cold = await measureColdStarts(floorDir, PLAN.coldRuns, {}, coldRequests(ctx));
  for (const row of results.cold) logCold(row);
  log(`  FIRESTORE_PREFER_REST=true (median of ${PLAN.coldRestRuns}) (${elapsed()})`);
  results.coldRest = await measureColdStarts(floorDir, PLAN.coldRestRuns, { FIRESTORE_PREFER_REST: 'true' }, coldRequests(ctx).slice(0, 1));
  for (const row of results.coldRest) logCold(row);

  const warmEnv = {
    PUSH_TRANSPORT: 'outbox',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mail.port),
    OTP_PER_IP_LIMIT: '1000000',
    OTP_PER_ADDRESS_LIMIT: '1000000',
  };
  const api = await startFunction({ source: API_SOURCE, env: functionEnv(warmEnv), name: 'api-warm' });
  // The same-host floor: floor.js serving each endpoint's floor operation, warm, on the same host.
  const contextFile = join(floorDir, 'context.json');
  const { kiosks, users, authUsers, tokens, adminToken, revoked } = ctx;
  writeFileSync(contextFile, JSON.stringify({ ctx: { kiosks, users, authUsers, tokens, adminToken, revoked, runId }, mailPort: mail.port }));
  const sameHostEnv = functionEnv({ BENCH_FLOOR_CONTEXT: contextFile, BENCH_ENDPOINTS_MODULE: pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'endpoints.mjs')).href });
  const sameHost = await startFunction({ source: floorDir, env: sameHostEnv, name: 'floor-warm' });
  const restApi = await startFunction({ source: API_SOURCE, env: functionEnv({ ...warmEnv, FIRESTORE_PREFER_REST: 'true' }), name: 'api-warm-rest' });
  try {
    await waitForSuccess(api, '/');
    await waitForSuccess(restApi, '/');
    await waitForSuccess(sameHost, floorPath('GET /kiosk/{id}', 0, sequence++));
    log(`\n2. Warm latency per endpoint (${elapsed()})`);
    const floorRunner = await startFloorRunner(ctx, mail.port);
    try {
      results.memory = [{ stage: 'warm instance before section 2', ...memoryOf(api.pid) }];
      results.warm = await measureWarm(api, sameHost, specs, floorRunner, results.memory, emulators.hub);
    } finally {
      floorRunner.stop();
    }
    await stopFunction(sameHost);
    log(`\n2c. Where a warm request's CPU goes, c=16, api vs same-host floor (${elapsed()})`);
    results.cpuBreakdown = await measureCpuBreakdown(
      specs,
      [
        { key: 'api', source: API_SOURCE, env: functionEnv(warmEnv), readyPath: '/', request: (spec, w, g) => spec.request(w, g) },
        {
          key: 'floor',
          source: floorDir,
          env: sameHostEnv,
          readyPath: floorPath('GET /kiosk/{id}', 0, sequence++),
          request: (spec, w, g) => ({ ...spec.request(w, g), path: floorPath(spec.name, w, g) }),
        },
      ],
      floorDir,
    );
    log(`\n2b. Warm p50, FIRESTORE_PREFER_REST=true vs gRPC (${elapsed()})`);
    results.restWarm = await measureRestWarm(api, restApi, specs, emulators.hub);
    await stopFunction(restApi);
    log(`\n3. Trigger lag: transaction accepted → effects.completedAt (${elapsed()})`);
    results.lag = await measureTriggerLag(api, ctx);
    log(`  c=1 p50 ${fmtMs(results.lag.c1.p50)} ms p95 ${fmtMs(results.lag.c1.p95)} ms; c=16 p50 ${fmtMs(results.lag.c16.p50)} ms p95 ${fmtMs(results.lag.c16.p95)} ms`);
    results.memory.push({ stage: 'after trigger lag (section 3)', ...memoryOf(api.pid) });
    await stopFunction(api);
    log(`\n4. Throughput of POST /kiosk/transaction (${elapsed()})`);
    results.throughput = await measureThroughput(ctx, warmEnv);
  } finally {
    await stopFunction(api);
    await stopFunction(restApi);
    await stopFunction(sameHost);
    await mail.close();
    await metadata.close();
    rmSync(floorDir, { recursive: true, force: true });
  }

  log(`\n5. Deploy size (${elapsed()})`);
  results.size = deploySize();
  log(`  upload ${(results.size.upload.bytes / 1024).toFixed(0)} KiB, built lib ${(results.size.lib.bytes / 1024).toFixed(0)} KiB, production dependencies ${(results.size.dependencies.bytes / 1024 ** 2).toFixed(1)} MiB in ${results.size.dependencies.packages} packages`);

  results.machine.loadAfter = loadavg()[0];
  results.durationS = (performance.now() - startedAt) / 1000;
  const summary = writeReport(results);
  mkdirSync(join(cacheDir, 'bench'), { recursive: true });
  writeFileSync(join(cacheDir, 'bench', 'results.json'), JSON.stringify({ ...results, summary }, null, 2));
  log(`\nWrote ${join(repoRoot, 'BENCHMARKS.md')} (${elapsed()})`);
  // The functions-framework logs are kept only when the run fails.
  rmSync(logDir(), { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
