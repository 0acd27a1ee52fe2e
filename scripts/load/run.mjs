// The load test proper, run inside `firebase emulators:exec` by scripts/loadtest.mjs: the phases of STEPS, then their
// books (docs/operations.md, Reliability and load).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { apiUrl, discoverEmulators } from '../../functions/test/harness/emulators.ts';
import { waitFor, waitForEffects } from '../../functions/test/harness/wait.ts';
import { postWithRetries } from '../../kiosk-simulator/client.ts';
import { cannon } from '../lib/cannon.mjs';
import { runAdmin } from '../lib/emulators.mjs';
import { db, fleetKioskDoc, fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { Ledger, auditBooks, booksTable, countOf, pointsAudit, randomInt, roundedSummary } from './books.mjs';
import { sum } from '../lib/stats.mjs';
import { hot, phase, retries, submitRecorded, transactionBody } from './bursts.mjs';
import { EXPIRE_AFTER_MONTHS, lifecycle, mixed, seedLifecycle, trust } from './mixed.mjs';
import { promotions } from './promotions.mjs';
import { offline } from './offline.mjs';
import { loadOptions } from './options.mjs';
import { loadTables, writeReliabilityReport } from './report.mjs';
import { claims, partners, vouchers } from './vouchers.mjs';

const { issueKey } = requireFunctions('./lib/data/kioskKeys.js');
const { transactionsCollection } = requireFunctions('./lib/data/transactions.js');
const { EFFECTS_PENDING } = requireFunctions('./lib/data/pendingEffects.js');
const { Webhook } = requireFunctions('standardwebhooks');
const { WEBHOOK_EVENT_TYPES } = requireFunctions('./lib/model/webhookEventTypes.js');
const FAILING_SHARE = 0.1;

const options = loadOptions(process.argv.slice(2));
const emulators = await discoverEmulators();
const ids = (/** @type {string} */ prefix, /** @type {number} */ count) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

async function seed() {
  const kioskIds = [...ids('load-kiosk', options.kiosks), ...ids('load-offline-kiosk', options.offlineKiosks)];
  const users = ids('load-user', options.users);
  const hotUser = 'load-hot-user';
  const spenders = ids('load-spender', options.spenders);
  const [dormant, leavers] = [ids('load-dormant', options.dormant), ids('load-leaver', options.leavers)];
  await writeAll([
    ...kioskIds.map((id, i) => [
      db().collection('kiosks').doc(id),
      fleetKioskDoc(i, { name: `Load kiosk ${i}`, address: `Test street ${i}`, openingHours: '24/7' }),
    ]),
    ...[...users, hotUser, ...spenders].map((id, i) => [
      db().collection('users').doc(id),
      fleetUserDoc(`Load user ${i}`, i % 2 === 0 ? `load-device-${i}` : undefined),
    ]),
  ]);
  await seedLifecycle(dormant, leavers);
  // A cap high enough that the hot user's 100 awards stay under it: this run measures the books, not the cap.
  await db().doc('config/rewards').set({ dailyPointsCap: 10_000_000, pointsExpireAfterMonths: EXPIRE_AFTER_MONTHS });
  const keyed = /** @type {{ id: string, apiKey: string }[]} */ ([]);
  for (const id of kioskIds) keyed.push({ id, ...(await issueKey(id, 'load test')) });
  const [kiosks, offlineKiosks] = [keyed.slice(0, options.kiosks), keyed.slice(options.kiosks)];
  return { kiosks, offlineKiosks, users, hotUser, spenders, dormant, leavers };
}

const started = Date.now();
console.log(`Seeding ${options.kiosks} kiosks and ${options.users} users...`);
const run = {
  ...(await seed()),
  api: apiUrl(emulators),
  projectId: emulators.projectId,
  admin: { authorization: `Bearer ${await idTokenFor('load-admin', { admin: true })}` },
  options,
  ledger: new Ledger(),
};
/** @typedef {typeof run} Run what every phase is given: the seeded kiosks and users, the sizes, the ledger */

/** The webhook receiver (§13): 503 until it has the secret, then 500 to FAILING_SHARE at random. @param {Run} run */
async function startReceiver({ api, admin }) {
  const seen = {
    attempts: 0,
    refusedOnPurpose: 0,
    badSignatures: 0,
    /** Event id (`webhook-id`) → when each 2xx was answered (ms since epoch). */
    delivered: /** @type {Map<string, number[]>} */ (new Map()),
  };
  /** @type {{ verify(body: string, headers: Record<string, string>): unknown } | undefined} */
  let verifier;
  const server = createServer(async (request, response) => {
    const body = await text(request);
    seen.attempts += 1;
    const id = String(request.headers['webhook-id']);
    let status = verifier ? 204 : 503;
    try {
      verifier?.verify(body, /** @type {any} */ (request.headers));
    } catch {
      seen.badSignatures += 1;
      status = 400;
    }
    if (status === 204 && Math.random() < FAILING_SHARE) {
      seen.refusedOnPurpose += 1;
      status = 500;
    }
    if (status === 204) seen.delivered.set(id, [...(seen.delivered.get(id) ?? []), Date.now()]);
    response.writeHead(status).end();
  });
  await once(server.listen(0, '127.0.0.1'), 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://127.0.0.1:${port}/load-test-hooks`;
  const body = { url, events: WEBHOOK_EVENT_TYPES, description: 'load test receiver' };
  const answer = await postWithRetries(api, '/admin/webhooks', { headers: admin, body });
  if (answer.status !== 201) throw new Error(`webhook registration: ${answer.status} ${JSON.stringify(answer.body)}`);
  verifier = new Webhook(answer.body.webhook.secret);
  return {
    webhookId: /** @type {string} */ (answer.body.webhook.id),
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const deliveriesOf = (/** @type {string} */ webhookId) =>
  db().collection('webhookDeliveries').where('webhookId', '==', webhookId);

/** @param {Run} run @param {string} webhookId */
async function settleDeliveries({ api, admin }, webhookId, rounds = 3) {
  const pending = () => countOf(deliveriesOf(webhookId).where('status', '==', 'pending'));
  let retried = 0;
  for (let round = 0; ; round++) {
    await waitFor(
      `every delivery to the load test's receiver to end succeeded or failed`,
      async () => ((await pending()) === 0 ? true : undefined),
      300_000,
      async () => `${await pending()} deliveries still pending`,
      1_000,
    );
    const failed = (await deliveriesOf(webhookId).where('status', '==', 'failed').get()).docs;
    if (failed.length === 0 || round === rounds) return retried;
    for (const doc of failed) {
      const path = `/admin/webhooks/${webhookId}/deliveries/${doc.id}/retry`;
      const answer = await postWithRetries(api, path, { headers: admin, body: undefined });
      if (answer.status !== 200) throw new Error(`retry of ${doc.id}: ${answer.status}`);
      retried += 1;
    }
  }
}

/**
 * The webhooks' books and what the receiver saw (lag: the event's commit to the receiver's first 2xx).
 * @param {Awaited<ReturnType<typeof startReceiver>>} receiver @param {number} retried
 */
async function webhookBooks({ webhookId, seen }, retried) {
  const registeredAt = (await db().collection('webhooks').doc(webhookId).get()).createTime?.toMillis() ?? 0;
  const events = /** @type {any[]} */ ((await db().collection('webhookEvents').select('type').get()).docs);
  const recorded = new Set(events.map((doc) => doc.id));
  const since = events.filter((doc) => doc.createTime.toMillis() > registeredAt);
  const deliveries = /** @type {any[]} */ ((await deliveriesOf(webhookId).select('eventId', 'status').get()).docs);
  const deliveredEvents = new Set(deliveries.map((doc) => doc.get('eventId')));
  const unsettled = deliveries.filter((doc) => ['pending', 'failed'].includes(doc.get('status'))).length;
  const undelivered = since.filter((doc) => !deliveredEvents.has(doc.id)).length;
  const unanswered = since.filter((doc) => !seen.delivered.has(doc.id)).length;
  const unrecorded = [...seen.delivered.keys()].filter((id) => !recorded.has(id)).length;
  const checks = {
    'events since the registration with no delivery to the receiver': [undelivered, 0],
    'events since the registration the receiver never answered 2xx': [unanswered, 0],
    'deliveries left pending or failed': [unsettled, 0],
    'webhook signatures that did not verify': [seen.badSignatures, 0],
    'events received that the service never recorded': [unrecorded, 0],
  };
  const types = /** @type {Record<string, number>} */ ({});
  for (const doc of since) types[doc.get('type')] = (types[doc.get('type')] ?? 0) + 1;
  const createdAt = new Map(since.map((doc) => [doc.id, doc.createTime.toMillis()]));
  const lag = [...seen.delivered]
    .filter(([id]) => createdAt.has(id))
    .map(([id, times]) => times[0] - createdAt.get(id));
  const figures = {
    eventsSinceTheRegistration: since.length,
    types,
    // Also of events recorded just before the registration whose fan-out ran after it.
    deliveries: deliveries.length,
    attempts: seen.attempts,
    refusedOnPurpose: seen.refusedOnPurpose,
    retriedByTheOperator: retried,
    deliveredMoreThanOnce: [...seen.delivered.values()].filter((times) => times.length > 1).length,
    lagMs: roundedSummary(lag),
  };
  return { checks, figures };
}

async function fleetPhase() {
  const { api, kiosks, users, ledger } = run;
  let nextKiosk = 0;
  /** Transactions sent and not answered, or answered 5xx, by Idempotency-Key. */
  const unanswered = new Map();
  const basePath = new URL(api).pathname;
  const { result, latencies } = await cannon(api, {
    connections: options.kiosks,
    duration: options.duration,
    build(n, connection) {
      connection.kiosk ??= kiosks[nextKiosk++ % kiosks.length];
      const { id, apiKey } = connection.kiosk;
      // Like a real kiosk, every transaction carries an Idempotency-Key, so one whose answer was lost (still in flight
      // when the run stopped) can be asked again.
      const key = Math.random() < 0.1 ? undefined : `fleet-${process.pid}-${n}`;
      const body = key ? transactionBody(id, users[randomInt(users.length)]) : { status: 'available' };
      // autocannon may prepare a connection's next request before it reports the previous response, so what was sent
      // is queued and matched in order.
      (connection.inFlight ??= []).push(key);
      if (key) unanswered.set(key, { apiKey, body });
      const headers = { 'x-api-key': apiKey, ...(key && { 'idempotency-key': key }) };
      return { method: 'POST', path: `${basePath}/kiosk/${key ? 'transaction' : `${id}/status`}`, headers, body };
    },
    onAnswer(status, body, connection) {
      const key = connection.inFlight.shift();
      ledger.response(status, body);
      if (status < 500) unanswered.delete(key);
      const transaction = status === 200 ? JSON.parse(body).transaction : undefined;
      if (transaction) ledger.award(transaction);
    },
  });
  ledger.latencies.push(...latencies);
  // Still unanswered: in flight when the run stopped, timed out, or answered 5xx. A kiosk asks again with the same key,
  // and gets the stored answer if the first one landed.
  for (const [key, { apiKey, body }] of unanswered) await submitRecorded(run, apiKey, body, key);
  return {
    kiosks: options.kiosks,
    users: options.users,
    seconds: options.duration,
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / options.duration,
    connectionErrors: result.errors,
    timeouts: result.timeouts,
    askedAgain: unanswered.size,
  };
}

const fleet = phase('fleet', { intro: '{kiosks} kiosks for {duration} s', work: fleetPhase, books: auditBooks });
/** The phases in the order they run; those of a list at once. */
const STEPS = [fleet, hot, retries, offline, claims, [partners, promotions, mixed, lifecycle, trust], vouchers];
/** Each phase's figures for the report, in the order the phases started. @type {Record<string, object>} */
const phases = {};
/** What each phase's setup and work returned. @type {Record<string, any>} */
const done = {};
const sizes = (/** @type {string} */ text) =>
  text.replace(/\{(\w+)\}/g, (_, size) => /** @type {any} */ (options)[size]);
const receiver = await startReceiver(run);
// The functions emulator starts a worker process per concurrent request (a cold burst of 50 spends a minute on it):
// warm them so the fleet phase measures the service. A failed request is asked again a second later, so the waiting
// callers do not keep the 2 cores busy while the workers start.
console.log(`Warming ${options.kiosks} function workers...`);
const answered = async () => (await fetch(`${run.api}/`).catch(() => undefined))?.ok || undefined;
const worker = () => waitFor('a function worker', answered, 120_000, undefined, 1_000).catch(() => false);
const warmed = (await Promise.all(Array.from({ length: options.kiosks }, worker))).filter(Boolean).length;
if (warmed < options.kiosks)
  console.log(`  only ${warmed} of ${options.kiosks} requests answered within 120 s; the fleet phase starts anyway`);
for (const step of STEPS.map((each) => [each].flat())) {
  for (const { name, setup } of step) if (setup) done[name] = await setup(run);
  const work = async (/** @type {(typeof step)[number]} */ { name, intro, work }) => {
    if (intro) console.log(`${name}: ${sizes(intro)}...`);
    const started = performance.now();
    phases[name] = {};
    done[name] = await work?.(run, done);
    const figures = 'figures' in done[name] ? done[name].figures : done[name];
    phases[name] = { ...figures, seconds: figures.seconds ?? (performance.now() - started) / 1000 };
  };
  await Promise.all(step.filter((phase) => phase.work).map(work));
}
// The end of the run: the triggers drain (until none is pending, or their number stalls for a minute: what is left
// then, no trigger will finish), then the effects sweep, racing any trigger still at work.
/** Every kind whose trigger tells, counts or delivers, and users: the sweep finishes an erasure. */
const SWEPT = ['transactions', 'redemptions', 'alerts', 'expiryReminders', 'webhookEvents', 'voucherUses', 'users'];
const pendingEffects = async () => {
  const count = (/** @type {string} */ name) => countOf(db().collection(name).where(EFFECTS_PENDING, '==', true));
  return Object.fromEntries(await Promise.all(SWEPT.map(async (name) => [name, await count(name)])));
};
console.log('Waiting for the triggers to drain...');
let [fewest, fellAt, leftByTriggers] = [Infinity, Date.now(), {}];
const settled = async () => {
  leftByTriggers = await pendingEffects();
  const total = sum(Object.values(leftByTriggers));
  if (total < fewest) [fewest, fellAt] = [total, Date.now()];
  return total === 0 || Date.now() - fellAt > 60_000 ? true : undefined;
};
const stillPending = async () => `still pending: ${JSON.stringify(leftByTriggers)}`;
await waitFor('the triggers to finish or stall for 60 s', settled, 600_000, stillPending, 1_000);
console.log(`Effects still pending: ${JSON.stringify(leftByTriggers)}; running the effects sweep...`);
const sweep = await runAdmin(run.projectId, ['effects:sweep', '--min-age', '0']);
if (sweep.status !== 0) throw new Error(`effects:sweep failed (exit ${sweep.status}): ${sweep.stderr.trim()}`);
/** @type {Record<string, { pending: number, completed: number, failed: number }>} */
const swept = JSON.parse(sweep.stdout);
const transactions = await waitForEffects(transactionsCollection(), 'all', { timeoutMs: 120_000, intervalMs: 1000 });
console.log('Waiting for the webhook deliveries to end; retrying those that failed...');
const retried = await settleDeliveries(run, receiver.webhookId);
await receiver.close();
const lag = transactions.map((doc) => doc.get('effects.completedAt').toMillis() - doc.get('createdAt').toMillis());

const phaseChecks = /** @type {import('./books.mjs').Checks[]} */ ([]);
for (const { name, books } of STEPS.flat()) {
  if (!books) continue;
  const checked = /** @type {any} */ (await books(run, done[name], { transactions, done }));
  if (checked.figures) phases[name] = checked.figures;
  phaseChecks.push(checked.checks ?? checked);
}
const webhooks = await webhookBooks(receiver, retried);
const pending = { 'effects still pending after the sweep': [sum(Object.values(await pendingEffects())), 0] };
const audit = await pointsAudit(run.projectId);
const checks = booksTable([...phaseChecks, webhooks.checks, pending, audit.checks]);
const problems = checks
  .filter(({ ok }) => !ok)
  .map(({ check, expected, found }) => `${check}: ${found}, not ${expected}`);

const { ledger } = run;
const figures = {
  date: new Date().toISOString(),
  phases: { ...phases, webhooks: webhooks.figures },
  totals: {
    'transactions recorded': transactions.length,
    'points awarded': ledger.points,
    'latency of every request, ms': roundedSummary(ledger.latencies),
    'trigger lag (created -> effects.completedAt), ms': roundedSummary(lag),
    'status codes': Object.fromEntries([...ledger.statuses].sort()),
    '5xx from the service (but 503 overloaded)': ledger.serviceErrors,
    '503 overloaded with Retry-After (nothing written; sent again, no fault)': ledger.overloaded,
    "5xx from the emulator's proxy (a worker socket broke; the kiosk sent the request again)": ledger.emulatorErrors,
    'effects the sweep completed after the triggers drained': Object.fromEntries(
      Object.entries(swept).map(([kind, outcome]) => [kind, outcome.completed]),
    ),
    'elapsed seconds': Math.round((Date.now() - started) / 1000),
  },
  checks,
  books: problems.length === 0 ? 'PASS' : `FAIL (${problems.slice(0, 5).join('; ')})`,
};

console.log(`\n${loadTables(figures)}\n`);
writeReliabilityReport(figures);
console.log(audit.line);
console.log(`books: ${figures.books}`);
process.exit(problems.length === 0 ? 0 : 1);
