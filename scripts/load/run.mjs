// @ts-check
// The load test proper, run inside `firebase emulators:exec` by scripts/loadtest.mjs.
// Six phases against the real functions on the emulator suite, then the books:
//   fleet:  50 kiosks, 200 users, 60 s of autocannon (transactions + status heartbeats)
//   hot:    100 concurrent awards to one user (bursts.mjs)
//   retries: every request sent 2-5 times with one Idempotency-Key, partly concurrently (bursts.mjs)
//   offline: 10 kiosks upload 120 deposits each of the last 6 days (offline.mjs)
//   mixed:   40 spenders earn, redeem (100 rush a stock of 10), are adjusted and refunded (mixed.mjs);
//            meanwhile 20 dormant users' old points expire and 20 leavers are erased (lifecycle.mjs)
//   vouchers: every voucher of the mixed phase used from three tills at once (vouchers.mjs)
// A webhook receiver that fails 10 % of attempts hears every event of the run
// (webhooks.mjs). Then the triggers drain, the effects sweep completes what none of
// them finished (effects.mjs), and deliveries that failed are retried. Sizes from the
// flags (options.mjs). Ends with `books: PASS` or `books: FAIL (...)` (exit 1; the
// audit is books.mjs) and writes RELIABILITY.md.
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { apiUrl, discoverEmulators } from '../../functions/test/harness/emulators.ts';
import { waitForEffects } from '../../functions/test/harness/wait.ts';
import { fleetKioskDoc, fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { summarize } from '../lib/stats.mjs';
import { Books, Ledger, auditBooks, pointsAudit, randomInt } from './books.mjs';
import { pendingEffects, sweepEffects, waitForTriggersToSettle } from './effects.mjs';
import { hotPhase, retriesPhase, submitRecorded, transactionBody } from './bursts.mjs';
import { offlinePhase } from './offline.mjs';
import { lifecycleBooks, lifecyclePhase, seedLifecycle, EXPIRE_AFTER_MONTHS } from './lifecycle.mjs';
import { MIXED_REWARDS, mixedBooks, mixedPhase } from './mixed.mjs';
import { setUpPartners, voucherBooks, voucherPhase } from './vouchers.mjs';
import { registerReceiver, settleDeliveries, startReceiver, webhookBooks } from './webhooks.mjs';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { loadOptions } from './options.mjs';
import { loadTables, writeReliabilityReport } from './report.mjs';

const { db } = requireFunctions('./lib/adapters/firestore.js');
const { issueKey } = requireFunctions('./lib/data/kioskKeys.js');
const { transactionsCollection } = requireFunctions('./lib/data/transactions.js');

const {
  kiosks: KIOSKS,
  users: USERS,
  duration: DURATION_S,
  hot: HOT_REQUESTS,
  retries: RETRY_REQUESTS,
  offlineKiosks: OFFLINE_KIOSKS,
  offlineDeposits: OFFLINE_DEPOSITS,
  offlineDays: OFFLINE_DAYS,
  spenders: SPENDERS,
  rush: RUSH,
  mixedRounds: MIXED_ROUNDS,
  dormant: DORMANT,
  leavers: LEAVERS,
} = loadOptions(process.argv.slice(2));
const emulators = await discoverEmulators();
const API = apiUrl(emulators);

async function seed() {
  const kioskIds = [
    ...Array.from({ length: KIOSKS }, (_, i) => `load-kiosk-${i}`),
    ...Array.from({ length: OFFLINE_KIOSKS }, (_, i) => `load-offline-kiosk-${i}`),
  ];
  const users = Array.from({ length: USERS + 1 }, (_, i) => (i === USERS ? 'load-hot-user' : `load-user-${i}`));
  const spenders = Array.from({ length: SPENDERS }, (_, i) => `load-spender-${i}`);
  const dormant = Array.from({ length: DORMANT }, (_, i) => `load-dormant-${i}`);
  const leavers = Array.from({ length: LEAVERS }, (_, i) => `load-leaver-${i}`);
  await writeAll([
    ...kioskIds.map((id, i) => [
      db().collection('kiosks').doc(id),
      fleetKioskDoc(i, { name: `Load kiosk ${i}`, address: `Test street ${i}`, openingHours: '24/7' }),
    ]),
    ...[...users, ...spenders].map((id, i) => [
      db().collection('users').doc(id),
      fleetUserDoc(`Load user ${i}`, i % 2 === 0 ? `load-device-${i}` : undefined),
    ]),
  ]);
  await seedLifecycle(dormant, leavers);
  // A cap high enough that the hot user's 100 awards stay under it: this run measures the books, not the cap.
  await db().doc('config/rewards').set({ dailyPointsCap: 10_000_000, pointsExpireAfterMonths: EXPIRE_AFTER_MONTHS });
  /** @type {{ id: string, apiKey: string }[]} */
  const kiosks = [];
  for (const id of kioskIds) kiosks.push({ id, ...(await issueKey(id, 'load test')) });
  return {
    kiosks: kiosks.slice(0, KIOSKS),
    offlineKiosks: kiosks.slice(KIOSKS),
    users: users.slice(0, USERS),
    hotUser: 'load-hot-user',
    spenders,
    dormant,
    leavers,
  };
}

/**
 * @typedef {Awaited<ReturnType<typeof seed>>} Seeded
 * @typedef {import('./bursts.mjs').TransactionBody} TransactionBody
 * @typedef {{ kind: 'transaction', startedAt: number, body: TransactionBody, idempotencyKey: string, apiKey: string }} SentTransaction
 * @typedef {{ kind: 'status', startedAt: number } | SentTransaction} Sent
 */

/**
 * @param {Seeded} seeded
 * @param {Ledger} ledger
 */
async function fleetPhase({ kiosks, users }, ledger) {
  let nextKiosk = 0;
  let sequence = 0;
  /** @type {{ kiosk: Seeded['kiosks'][number], inFlight: Sent[] }[]} autocannon's per-connection contexts */
  const connections = [];
  /** @type {SentTransaction[]} */
  const toAskAgain = [];
  const basePath = new URL(API).pathname;
  const result = await autocannon({
    url: API,
    connections: KIOSKS,
    duration: DURATION_S,
    timeout: 60,
    requests: [
      {
        setupRequest(/** @type {Record<string, unknown>} */ request, /** @type {any} */ context) {
          if (!context.kiosk) {
            context.kiosk = kiosks[nextKiosk++ % kiosks.length];
            // autocannon may prepare a connection's next request before it reports the
            // previous response, so what was sent is queued and matched in order.
            context.inFlight = [];
            connections.push(context);
          }
          const headers = { 'content-type': 'application/json', 'x-api-key': context.kiosk.apiKey };
          if (Math.random() < 0.1) {
            context.inFlight.push({ kind: 'status', startedAt: performance.now() });
            return {
              ...request,
              method: 'POST',
              path: `${basePath}/kiosk/${context.kiosk.id}/status`,
              headers,
              body: JSON.stringify({ status: 'available' }),
            };
          }
          // Like a real kiosk, every transaction carries an Idempotency-Key, so one whose
          // answer was lost (still in flight when the run stopped) can be asked again.
          const body = transactionBody(context.kiosk.id, users[randomInt(users.length)]);
          const idempotencyKey = `fleet-${process.pid}-${sequence++}`;
          context.inFlight.push({
            kind: 'transaction',
            startedAt: performance.now(),
            body,
            idempotencyKey,
            apiKey: context.kiosk.apiKey,
          });
          return {
            ...request,
            method: 'POST',
            path: `${basePath}/kiosk/transaction`,
            headers: { ...headers, 'idempotency-key': idempotencyKey },
            body: JSON.stringify(body),
          };
        },
        onResponse(/** @type {number} */ status, /** @type {string} */ body, /** @type {any} */ context) {
          /** @type {Sent} */
          const sent = context.inFlight.shift();
          ledger.response(status, body, performance.now() - sent.startedAt);
          const answer = status === 200 ? JSON.parse(body) : undefined;
          if (answer?.transaction) ledger.award(answer.transaction);
          else if (status >= 500 && sent.kind === 'transaction') toAskAgain.push(sent);
        },
      },
    ],
  });
  // Requests still queued were in flight when the run stopped, or timed out: a kiosk
  // asks again with the same key, and gets the stored answer if the first one landed.
  const unanswered = [
    ...toAskAgain,
    ...connections.flatMap((context) =>
      context.inFlight.filter(/** @returns {sent is SentTransaction} */ (sent) => sent.kind === 'transaction'),
    ),
  ];
  for (const sent of unanswered) await submitRecorded(API, ledger, sent.apiKey, sent.body, sent.idempotencyKey);
  return {
    kiosks: KIOSKS,
    users: USERS,
    seconds: DURATION_S,
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / DURATION_S,
    connectionErrors: result.errors,
    timeouts: result.timeouts,
    askedAgain: unanswered.length,
  };
}

/**
 * The functions emulator starts one worker process per concurrent request; a cold
 * burst of 50 spends its first minute starting processes. Warm them first so the
 * fleet phase measures the service, not the emulator's process start-up. A request
 * that fails is asked again after a pause that doubles up to 1 s, so the waiting
 * callers do not keep the emulator's 2 cores busy while its workers start.
 */
async function warmUp(timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  const answered = await Promise.all(
    Array.from({ length: KIOSKS }, async () => {
      for (let pauseMs = 100; Date.now() < deadline; pauseMs = Math.min(2 * pauseMs, 1_000)) {
        try {
          if ((await fetch(`${API}/`)).ok) return true;
        } catch {
          // not up yet
        }
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      return false;
    }),
  );
  const warm = answered.filter(Boolean).length;
  if (warm < KIOSKS)
    console.log(
      `  only ${warm} of ${KIOSKS} requests answered within ${timeoutMs / 1000} s; the fleet phase starts anyway`,
    );
}

const started = Date.now();
console.log(`Seeding ${KIOSKS} kiosks and ${USERS} users...`);
const seeded = await seed();
const ledger = new Ledger();
const admin = { authorization: `Bearer ${await idTokenFor('load-admin', { admin: true })}` };
const receiver = await startReceiver();
const webhookId = await registerReceiver(API, admin, receiver);
console.log(`Warming ${KIOSKS} function workers...`);
await warmUp();
console.log(`fleet: ${KIOSKS} kiosks for ${DURATION_S} s...`);
const fleet = await fleetPhase(seeded, ledger);
console.log(`hot: ${HOT_REQUESTS} concurrent awards to one user...`);
const hot = await hotPhase({ ...seeded, api: API, requests: HOT_REQUESTS }, ledger);
console.log(`retries: ${RETRY_REQUESTS} requests, each sent 2-5 times...`);
const retries = await retriesPhase({ ...seeded, api: API, requests: RETRY_REQUESTS }, ledger);
console.log(`offline: ${OFFLINE_KIOSKS} kiosks upload ${OFFLINE_DEPOSITS} deposits each...`);
const offline = await offlinePhase({ ...seeded, api: API, deposits: OFFLINE_DEPOSITS, days: OFFLINE_DAYS }, ledger);
const partners = await setUpPartners(API, admin, ledger);
console.log(
  `mixed: ${SPENDERS} spenders earn, redeem and are adjusted; ${RUSH} rush a stock of 10; ` +
    `${DORMANT} dormant users' points expire and ${LEAVERS} leavers are erased meanwhile...`,
);
const mixedPlan = {
  api: API,
  admin,
  kiosks: seeded.kiosks,
  spenders: seeded.spenders,
  rush: RUSH,
  rounds: MIXED_ROUNDS,
};
const lifecyclePlan = {
  ...mixedPlan,
  projectId: emulators.projectId,
  dormant: seeded.dormant,
  leavers: seeded.leavers,
};
const [mixed, lifecycle] = await Promise.all([mixedPhase(mixedPlan, ledger), lifecyclePhase(lifecyclePlan, ledger)]);
console.log(`vouchers: each voucher used from ${partners.tills.length} tills at once...`);
const rewardIds = [MIXED_REWARDS.scarce.id, MIXED_REWARDS.voucher.id];
const vouchers = await voucherPhase({ api: API, admin, partners, rewardIds }, ledger);
console.log('Waiting for the triggers to drain...');
const leftByTriggers = await waitForTriggersToSettle();
console.log(`Effects still pending: ${JSON.stringify(leftByTriggers)}; running the effects sweep...`);
const swept = sweepEffects(emulators.projectId);
const transactions = await waitForEffects(transactionsCollection(), 'all', { timeoutMs: 120_000, intervalMs: 1000 });
console.log('Waiting for the webhook deliveries to end; retrying those that failed...');
const retried = await settleDeliveries(API, admin, webhookId);
await receiver.close();
const lag = transactions.map(
  (/** @type {any} */ doc) => doc.get('effects.completedAt').toMillis() - doc.get('createdAt').toMillis(),
);

const books = new Books();
await auditBooks(books, ledger, seeded, transactions, retries, offline);
await voucherBooks(books, vouchers, mixed.tally.cancelled);
await mixedBooks(books, mixed.tally, mixedPlan, ledger);
await lifecycleBooks(books, lifecycle, seeded, ledger);
const webhooks = await webhookBooks(books, webhookId, receiver.seen, retried);
const pending = Object.values(await pendingEffects()).reduce((sum, n) => sum + n, 0);
books.expect('effects still pending after the sweep', pending, 0);
const audit = pointsAudit(emulators.projectId);
books.expect(
  '`npm run admin -- audit`',
  audit.ok ? audit.line : `${audit.line}: ${audit.differences}`,
  'audit: OK',
  audit.ok,
);
const { problems } = books;

const round = (/** @type {Record<string, number>} */ values) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Math.round(value)]));
const figures = {
  date: new Date().toISOString(),
  phases: {
    fleet,
    hot,
    retries,
    offline,
    mixed: mixed.figures,
    lifecycle: lifecycle.figures,
    vouchers: vouchers.figures,
    webhooks,
  },
  totals: {
    'transactions recorded': transactions.length,
    'points awarded': ledger.points,
    'latency of every request, ms': round(summarize(ledger.latencies)),
    'trigger lag (created -> effects.completedAt), ms': round(summarize(lag)),
    'status codes': Object.fromEntries([...ledger.statuses].sort()),
    '5xx from the service (but 503 overloaded)': ledger.serviceErrors,
    '503 overloaded with Retry-After (nothing written; sent again, no fault)': ledger.overloaded,
    "5xx from the emulator's proxy (a worker socket broke; the kiosk sent the request again)": ledger.emulatorErrors,
    'effects the sweep completed after the triggers drained': Object.fromEntries(
      Object.entries(swept).map(([kind, outcome]) => [kind, outcome.completed]),
    ),
    'elapsed seconds': Math.round((Date.now() - started) / 1000),
  },
  checks: books.checks,
  books: problems.length === 0 ? 'PASS' : `FAIL (${problems.slice(0, 5).join('; ')})`,
};

console.log(`\n${loadTables(figures)}\n`);
writeReliabilityReport(figures);
console.log(audit.line);
console.log(`books: ${figures.books}`);
process.exit(problems.length === 0 ? 0 : 1);
