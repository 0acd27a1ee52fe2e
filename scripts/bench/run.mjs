// The bench proper, run by scripts/bench.mjs inside `firebase emulators:exec` (docs/performance.md):
//   node scripts/bench/run.mjs <results.json> [--quick] [--only=cold|warm|promotions|trust|claims]
// The functions emulator only runs the triggers (the batch section) and the webhooks, with the tasks emulator.
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setBackgroundTriggers } from '../../functions/test/harness/emulators.ts';
import { MailCatcher } from '../../functions/test/harness/mail-catcher.ts';
import { endpoints, seed } from './data.mjs';
import { firstAnswer, floorFunction, functionEnv, logDir, withInstances } from './host.mjs';
import { measureBatch, measureWebhookLag } from './sections/triggers.mjs';
import { measureExpiry, measureExport, measureHistory, measureNearby, measureThroughput } from './sections/growth.mjs';
import { measureClaims, measureColdStart, measureTrust, measureWarm } from './sections/latency.mjs';
import { measurePromotions } from './sections/promotions.mjs';

const [resultsFile, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
/** --only=<section>: that section alone, written with the machine's figures (scripts/bench.mjs prints it). */
const only = flags.find((flag) => flag.startsWith('--only='))?.slice('--only='.length);
const machineNow = () => {
  const [cpu, cores, node, loadAfter] = [cpus()[0]?.model ?? 'unknown', cpus().length, process.version, loadavg()[0]];
  return { cpu, cores, node, loadBefore, loadAfter };
};
const finish = (/** @type {object} */ results) => {
  writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  rmSync(logDir, { recursive: true, force: true });
  process.exit(0);
};
/** @type {<T>(full: T, small: T) => T} */
const scale = (full, small) => (quick ? small : full);
/** How often each section repeats what it times; --quick shrinks it to minutes, for trying the bench itself. */
const plan = {
  coldRuns: scale(15, 2),
  warm: {
    concurrencies: [1, 16],
    rounds: scale(4, 1),
    amount: (/** @type {number} */ c) => (c === 1 ? scale(25, 10) : scale(192, 32)),
  },
  throughput: {
    users: scale([10, 1_000, 10_000], [10, 1_000]),
    connections: [16, 64],
    seconds: scale(10, 2),
    rounds: scale(3, 1),
  },
  batch: { items: scale(100, 20), rounds: scale(2, 1) },
  nearby: { fleets: scale([100, 10_000], [100, 1_000]), near: 20, rounds: scale(5, 1), amount: scale(40, 10) },
  history: { entries: scale([10, 10_000], [10, 1_000]), rounds: scale(5, 1), amount: scale(40, 10) },
  webhooks: { warmUp: scale(20, 5), events: scale(60, 10), intervalMs: 250 },
  export: { entries: scale([10, 10_000], [10, 1_000]), rounds: scale(5, 1) },
  expiry: { due: 200, idle: scale(1_000, 100), rounds: scale(7, 1) },
};
/** The voucher uses of the warm section, each of a voucher of its own: a warm-up of 2c and the rounds, per c. */
const voucherUses = plan.warm.concurrencies.reduce((sum, c) => sum + 2 * c + plan.warm.rounds * plan.warm.amount(c), 0);
const startedAt = performance.now();
const step = (/** @type {string} */ what) =>
  console.log(`\n${what} (${((performance.now() - startedAt) / 1000).toFixed(0)} s)`);

await setBackgroundTriggers(false);
const runId = Date.now().toString(36);
const mail = new MailCatcher({ keep: false });
const env = {
  PUSH_TRANSPORT: 'outbox',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(await mail.start()),
  OTP_PER_IP_LIMIT: '1000000',
  OTP_PER_ADDRESS_LIMIT: '1000000',
  OTP_GLOBAL_LIMIT_PER_HOUR: '10000000',
};
const loadBefore = loadavg()[0];
step('Seeding');
const data = { ...(await seed(runId, voucherUses)), runId };
const list = endpoints(data);

if (!only || only === 'cold') step(`Cold start: api and the empty function alternating, ${plan.coldRuns} runs`);
const coldRequests = list.filter(({ name }) => ['GET /kiosk/{id}', 'GET /user/{id}'].includes(name));
const cold =
  only && only !== 'cold' ? [] : await measureColdStart({ env, runs: plan.coldRuns, requests: coldRequests });
if (only === 'cold') finish({ cold, machine: machineNow() });

step('Warm latency per endpoint, c=1 and c=16, the batch of a backlog, webhook delivery lag');
const instances = [{ env: functionEnv(env) }, floorFunction()];
/** GET /openapi.json's HTTP floor sends a body of its size. @param {import('./host.mjs').Instance[]} _ */
const warmRows = async ([api, floor]) => {
  const bodyBytes = Buffer.byteLength(JSON.stringify((await firstAnswer(api, { path: '/openapi.json' })).body));
  return measureWarm({ api: api.url, floor: floor.url, endpoints: list, ...plan.warm, bodyBytes });
};
if (only === 'warm') finish({ warm: await withInstances(instances, warmRows), machine: machineNow() });
const endpoint = /** @type {any} */ (list.find(({ name }) => name === 'POST /kiosk/transaction'));
/** Part four's rows (§16-§18), each run on the api instance; `--only=<name>` runs one alone. */
const partFour = {
  promotions: (/** @type {string} */ url) => measurePromotions({ api: url, endpoint, ...plan.warm }),
  trust: async (/** @type {string} */ url) => ({ trust: await measureTrust({ url, endpoint, ...plan.warm }) }),
  claims: async (/** @type {string} */ url) => ({ claims: await measureClaims({ url, data, ...plan.warm }) }),
};
if (only && only in partFour) {
  const measure = /** @type {(url: string) => Promise<object>} */ (partFour[/** @type {keyof partFour} */ (only)]);
  const rows = await withInstances(instances, ([api]) => measure(api.url));
  finish({ ...rows, machine: machineNow() });
}
const onApi = await withInstances(instances, async ([api, floor]) => {
  const warm = await warmRows([api, floor]);
  step(`A backlog of ${plan.batch.items}: one batch against single submissions`);
  const batch = await measureBatch({ url: api.url, runId, ...plan.batch });
  step(`Webhook delivery lag: ${plan.webhooks.events} events, one every ${plan.webhooks.intervalMs} ms`);
  const webhooks = await measureWebhookLag({ url: api.url, data, ...plan.webhooks });
  step('Promotions: an award with 20 active against none; a budget under c=16');
  const promoted = await partFour.promotions(api.url);
  step('An award with every trust check on against every check off (contract §17)');
  const checked = await partFour.trust(api.url);
  step('Claim codes (§18): a claim against a plain deposit, c=1 and c=16');
  return { warm, batch, webhooks, ...promoted, ...checked, ...(await partFour.claims(api.url)) };
});

step('Throughput of POST /kiosk/transaction as the users grow');
const throughput = await measureThroughput({ env, data, ...plan.throughput });
step('GET /kiosks?near= as the fleet grows elsewhere');
const nearby = await measureNearby({ env, ...plan.nearby });
step('GET /user/{id}/history as the history grows');
const history = await measureHistory({ env, runId, kioskId: data.kiosks[0].id, ...plan.history });
step('GET /user/{id}/export as the history grows');
const exports = await measureExport({ env, runId, kioskId: data.kiosks[0].id, ...plan.export });
const { due, idle } = plan.expiry;
step(`The expiry run: ${due} users due beside ${idle} and ${10 * idle} with nothing to expire`);
const expiry = await measureExpiry(plan.expiry);
await mail.stop();

const results = { quick, plan, machine: machineNow(), cold, ...onApi, throughput, nearby, history, exports, expiry };
/** @typedef {typeof results} RunResults */
finish(results);
