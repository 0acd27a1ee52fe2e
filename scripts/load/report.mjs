// @ts-check
// Writes RELIABILITY.md from the figures of this load run and the per-file results
// of the last `npm test` (.cache/test-results), so no figure in it is typed by hand.
// Run on its own (`node scripts/load/report.mjs`) it rewrites the report from the
// figures the last load run saved, with the results of a newer `npm test`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, repoRoot } from '../lib/paths.mjs';

const FIGURES_FILE = join(cacheDir, 'loadtest-figures.json');

const SUITES = [
  [
    'Faults',
    'transactions.test.ts',
    'push provider unregistered / unavailable, kiosk not available, daily cap, concurrent and repeated Idempotency-Keys, 50 concurrent awards',
  ],
  [
    'Faults',
    'kiosk-simulator.test.ts',
    'a kiosk offline for days: its journal across a restart, the first batch answer lost and the batch sent again blindly (a replay), books and daily figures exact; 409 keeps the backlog',
  ],
  [
    'Faults',
    'triggers.test.ts',
    'trigger redelivered (firebase-functions-test, twice), a run that died after claiming the push',
  ],
  [
    'Faults',
    'otp.test.ts',
    'mail server refusing and down: 502, quota not burned; per-address and per-IP flooding: 429 + Retry-After',
  ],
  [
    'Faults',
    'redemptions.test.ts',
    'concurrent redemptions against a stock of 3 and a balance for 2, one key sent 10 times at once, replays and reused keys, cancel twice, the notification once under trigger redelivery',
  ],
  [
    'Faults',
    'adjustments.test.ts',
    '20 concurrent adjustments of -10 against a balance of 100 (exactly 10, never below 0), past zero refused with nothing written, key replay and reuse',
  ],
  ['Faults', 'notify.test.ts', 'unregistered token 410 and removed, provider down 502, nothing half-written'],
  [
    'Hostile input',
    'fuzz.test.ts',
    'property-based: random bodies, types, sizes, unicode, path ids, headers on every endpoint',
  ],
  ['Hostile input', 'security.test.ts', 'expired, foreign-project and malformed ID tokens'],
  [
    'Hostile input',
    'protocol.test.ts',
    'unknown routes, methods, malformed JSON, content types, oversized bodies, path ids, CORS',
  ],
  ['Hostile input', 'kiosks.test.ts', 'missing, wrong and revoked kiosk keys; kiosk A key on kiosk B'],
  ['Hostile input', 'users.test.ts', 'user A token on user B on every user endpoint (BOLA)'],
  ['Hostile input', 'admin.test.ts', 'non-admin on every admin endpoint'],
  [
    'Hostile input',
    'firestore-rules.test.ts',
    'security rules: every client write denied but a notification read flag',
  ],
  ['Hostile input', 'log.test.ts', 'log events carry no stack traces'],
];

function lastTestRun() {
  const counts = new Map();
  let when;
  for (const tier of ['unit', 'integration']) {
    const file = join(cacheDir, 'test-results', `${tier}.json`);
    if (!existsSync(file)) continue;
    const results = JSON.parse(readFileSync(file, 'utf8'));
    when = new Date(results.startTime).toISOString();
    for (const suite of results.testResults) {
      counts.set(basename(suite.name), {
        passed: suite.assertionResults.filter((/** @type {{ status: string }} */ a) => a.status === 'passed').length,
        failed: suite.assertionResults.filter((/** @type {{ status: string }} */ a) => a.status === 'failed').length,
      });
    }
  }
  return { counts, when };
}

/**
 * What the effects sweep completed after the triggers drained, per kind.
 * @param {Record<string, number> | undefined} swept
 */
const sweptLine = (swept) =>
  swept
    ? `completed the effects of ${Object.entries(swept)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')} that no trigger finished`
    : 'not run';

const ms = (/** @type {number} */ value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');

/**
 * The load run's figures on the console, before the books' verdict.
 * @param {any} figures what run.mjs measured
 */
export function printLoadSummary(figures) {
  const { fleet, latency, triggerLag: lag, hot, retries, offline } = figures;
  console.log(`
throughput (fleet):   ${fleet.throughput.toFixed(1)} req/s over ${figures.durationSeconds} s (${fleet.requests} requests, ${fleet.errors} connection errors, ${fleet.timeouts} timeouts, ${fleet.askedAgain} in flight at the end asked again)
latency (all phases): p50 ${ms(latency.p50)}, p95 ${ms(latency.p95)}, p99 ${ms(latency.p99)} (${latency.n} requests)
trigger lag:          p50 ${ms(lag.p50)}, p95 ${ms(lag.p95)} (transaction created -> effects.completedAt)
hot user:             ${hot.requests} concurrent awards in ${hot.seconds.toFixed(1)} s, ${hot.failures} not 200
blind retries:        ${retries.logical} requests sent ${retries.sent} times, ${retries.answered} awarded, ${retries.doubled} doubled
offline:              ${offline.deposits} deposits of ${offline.kiosks} kiosks over ${offline.days} days: ${offline.batchRequests} batch requests (${offline.dropped} dropped, ${offline.answersLost} answers lost, ${offline.overlappingBatches} overlapping), ${offline.singleResends} sent again alone; ${offline.answered} awarded, ${offline.replayedAnswers} replayed answers, ${offline.doubled} doubled, ${offline.leftInJournals} left in journals; uploaded in ${offline.uploadSeconds.toFixed(1)} s
mixed:                ${figures.mixed ? `${figures.mixed.rushIssued} of ${figures.mixed.rush} rushing issued; ${figures.mixed.redemptions} redemptions, ${figures.mixed.cancelled} cancelled, ${figures.mixed.adjustments} adjustments, refused ${JSON.stringify(figures.mixed.refused)}` : 'not run'}
kiosk days:           ${figures.kioskDays}
status codes:         ${JSON.stringify(figures.statuses)}
5xx:                  ${figures.serviceErrors} from the service, ${figures.emulatorErrors} from the emulator's proxy (broken worker socket; the kiosk sent the same request again)
overloaded:           ${figures.overloaded ?? 0} requests and ${figures.offline?.itemsOverloaded ?? 0} batch items answered 503 overloaded (sent again after Retry-After; not a fault)
effects sweep:        ${sweptLine(figures.effectsSweep)}
transactions:         ${figures.transactions}, points awarded ${figures.pointsAwarded}`);
}

/**
 * The offline phase's row of the load table (none in figures saved before it existed).
 * @param {any} offline
 */
const offlineRow = (offline) =>
  offline
    ? `| offline | ${offline.kiosks} kiosks (the kiosk simulator) journal ${offline.deposits / offline.kiosks} deposits each, spread over the last ${offline.days} days; back online they upload the backlog in batches of 100 through a network that drops ${offline.dropped} batch requests and loses ${offline.answersLost} answers after the service acted (blind re-sends of whole batches), with an overlapping batch beside each flush and ${offline.singleResends} deposits sent again alone | ${offline.batchRequests} batch requests, ${offline.retries} retries; ${offline.answered} of ${offline.deposits} deposits awarded, ${offline.replayedAnswers} replayed answers, ${offline.doubled} doubled, ${offline.leftInJournals} left in journals; backlogs uploaded in ${offline.uploadSeconds.toFixed(1)} s |`
    : '';

/**
 * The mixed phase's row of the load table (none in figures saved before it existed).
 * @param {any} mixed
 */
const mixedRow = (mixed) =>
  mixed
    ? `| mixed | ${mixed.spenders} spenders, each opened with an adjustment, for ${mixed.rounds} rounds: kiosks keep depositing for them, each redeems a voucher or a donation, every third redemption is cancelled twice at once, each is adjusted up or down; ${mixed.rush} concurrent redemptions of a reward with a stock of ${mixed.stock}; every request sent blindly 1-3 times with one Idempotency-Key | ${mixed.sent} requests: ${mixed.rushIssued} of the rush issued, ${mixed.redemptions} redemptions for ${mixed.redemptionKeys} keys, ${mixed.cancelled} cancelled, ${mixed.adjustments} adjustments for ${mixed.adjustmentKeys} keys, ${mixed.deposits} deposits; refused: ${
        Object.entries(mixed.refused)
          .map(([what, n]) => `${what} ×${n}`)
          .join(', ') || 'none'
      }; in ${mixed.seconds.toFixed(1)} s |`
    : '';

/** @param {any} figures what run.mjs measured (also saved, for a rewrite with newer suite results) */
export function writeReliabilityReport(figures) {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(FIGURES_FILE, JSON.stringify(figures, null, 2));
  const { counts, when } = lastTestRun();
  const suiteRows = SUITES.map(([kind, file, what]) => {
    const count = counts.get(file);
    const result = count ? `${count.passed} passed, ${count.failed} failed` : 'not in the last run';
    return `| ${kind} | \`${file}\` | ${what} | ${result} |`;
  });
  const text = `# Reliability

Written by \`npm run loadtest\` (scripts/load/run.mjs) on ${figures.date}; the suite
results come from the last \`npm test\`${when ? ` (started ${when})` : ''}. Regenerate both
with \`npm test && npm run loadtest\`. Everything ran on the Firebase emulator suite on
one machine of 2 cores; figures are the emulator's, not production's.

## Load: \`npm run loadtest\`

| Phase | What | Result |
|---|---|---|
| fleet | ${figures.kiosks} kiosks (autocannon, one connection each) submitting to ${figures.users} users for ${figures.durationSeconds} s, ~10 % status heartbeats | ${figures.fleet.requests} requests, ${figures.fleet.throughput.toFixed(1)} req/s, ${figures.fleet.errors} connection errors, ${figures.fleet.timeouts} timeouts |
| hot user | ${figures.hot.requests} concurrent awards to one user | ${figures.hot.failures} not answered 200, ${figures.hot.awarded} points, done in ${figures.hot.seconds.toFixed(1)} s |
| blind retries | ${figures.retries.logical} requests, each sent 2-5 times with one Idempotency-Key, partly concurrently | sent ${figures.retries.sent} times, ${figures.retries.answered} awarded, ${figures.retries.doubled} doubled |
${offlineRow(figures.offline)}
${mixedRow(figures.mixed)}

| Figure | Value |
|---|---|
| transactions recorded | ${figures.transactions} |
| points awarded (= sum returned = users' gain = transaction documents) | ${figures.pointsAwarded} |
| latency, all phases | p50 ${ms(figures.latency.p50)}, p95 ${ms(figures.latency.p95)}, p99 ${ms(figures.latency.p99)} over ${figures.latency.n} requests |
| trigger lag (created -> effects.completedAt) | p50 ${ms(figures.triggerLag.p50)}, p95 ${ms(figures.triggerLag.p95)} |
| status codes | ${Object.entries(figures.statuses)
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ')} |
| 5xx from the service (but 503 \`overloaded\`) | ${figures.serviceErrors} |
| 503 \`overloaded\` with Retry-After (the service protecting itself, nothing written; sent again, not a fault) | ${figures.overloaded ?? 0} requests, ${figures.offline?.itemsOverloaded ?? 0} batch items |
| effects sweep (\`admin effects:sweep\` after the triggers drained) | ${sweptLine(figures.effectsSweep)} |
| 5xx from the emulator's proxy (its worker socket broke: EPIPE/ECONNRESET; the kiosk sent the same request again with its Idempotency-Key) | ${figures.emulatorErrors} |
| daily reports (kioskDays = sums per kiosk and UTC day of occurredAt) | ${figures.kioskDays ?? 'not checked by this run'} |
| \`npm run admin -- audit\` (balances from the ledger, kiosk counters from the transactions) | ${figures.audit} |
| **books** | **${figures.books}** |

The books check: the points in the 200 responses, the users' total-points gain, and the
transaction documents agree exactly; each user holds exactly what was returned for them;
every kiosk's counters equal the items submitted to it once the triggers drained; one
notification per transaction; no 5xx written by the service but 503 \`overloaded\`; no Idempotency-Key awarded
twice or never; every offline deposit exactly one transaction document, none left in a
kiosk's journal; each kiosk's daily figures (\`kioskDays\`) equal the sums of its
transactions per UTC day of \`occurredAt\`; in the mixed phase, no key redeemed or
adjusted twice, the rush issued exactly as many as the stock and left it at 0, each
cancelled redemption cancelled by exactly one of its two cancels, each spender's
balances equal to what was earned, adjusted, spent and refunded, one redemption
notification per redemption but those cancelled before they were announced; and the
operator CLI's audit OK. The books are checked after the effects sweep has completed
whatever no trigger finished, and no effect may be left pending then. Kiosks behave as real ones: every transaction
carries an Idempotency-Key and is sent again after a 5xx or a broken connection; the
offline kiosks are the kiosk simulator (\`npm run kiosk\`), journal and all.

## Faults and hostile input: \`npm test\`

| Kind | File (functions/test/) | What | Last run |
|---|---|---|---|
${suiteRows.join('\n')}
`;
  writeFileSync(join(repoRoot, 'RELIABILITY.md'), text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(FIGURES_FILE)) {
    console.error('No load figures yet: run `npm run loadtest` first.');
    process.exit(1);
  }
  writeReliabilityReport(JSON.parse(readFileSync(FIGURES_FILE, 'utf8')));
  console.log('RELIABILITY.md rewritten.');
}
