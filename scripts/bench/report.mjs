// @ts-check
// BENCHMARKS.md from what the bench measured: the targets judged, then one table per
// section. Every figure comes from the results; the text says only what a table times.

/**
 * @template {(...args: any[]) => Promise<unknown>} F
 * @typedef {Awaited<ReturnType<F>>} Of
 */
/**
 * @typedef {{
 *   plan: { coldRuns: number, batch: { items: number, rounds: number }, throughput: { seconds: number, rounds: number },
 *     webhooks: { warmUp: number }, export: { rounds: number }, expiry: { rounds: number } },
 *   machine: { cpu: string, cores: number, node: string, loadBefore: number, loadAfter: number },
 *   start: Of<typeof import('./start.mjs').measureStart>,
 *   cold: Of<typeof import('./sections/latency.mjs').measureColdStart>,
 *   warm: Of<typeof import('./sections/latency.mjs').measureWarm>,
 *   batch: Of<typeof import('./sections/batch.mjs').measureBatch>,
 *   webhooks: Of<typeof import('./sections/webhooks.mjs').measureWebhookLag>,
 *   throughput: Of<typeof import('./sections/growth.mjs').measureThroughput>,
 *   nearby: Of<typeof import('./sections/growth.mjs').measureNearby>,
 *   history: Of<typeof import('./sections/growth.mjs').measureHistory>,
 *   exports: Of<typeof import('./sections/export.mjs').measureExport>,
 *   expiry: Of<typeof import('./sections/expiry.mjs').measureExpiry>,
 *   console: ConsoleResults,
 * }} Results
 */
/**
 * What scripts/bench/console.mjs measured.
 * @typedef {{ measuredAt: string, kiosks: number, runs: number, renderedMs: number[], medianMs: number,
 *   scripts: { url: string, bytes: number, gzip: number }[], gzipTotal: number }} ConsoleResults
 */

/** The contract's budget for the console's first page: compressed JavaScript. */
const CONSOLE_JS_BUDGET_KB = 250;
const kb = (/** @type {number} */ bytes) => (bytes / 1024).toFixed(1);

const ms = (/** @type {number} */ v) => (!Number.isFinite(v) ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const x = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
const n = (/** @type {number} */ v) => v.toLocaleString('en-US');
/** @param {string[]} head @param {unknown[][]} rows */
const table = (head, rows) => [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
/** @param {{ n: number, p50: number, p95: number, p99: number }} row */
const percentiles = (row) => [row.n, ms(row.p50), ms(row.p95), ms(row.p99)];

/**
 * Every target of BENCHMARKS.md: what it asks, what was measured, met or not.
 * @param {Results} r
 */
export function judge(r) {
  const judged = r.warm.filter((row) => row.judged);
  const worst = judged.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const faults = r.throughput.reduce((sum, row) => sum + row.non2xx + row.errors + row.timeouts, 0);
  const falls = [...new Set(r.throughput.map((row) => row.connections))].map((c) => {
    const rates = r.throughput.filter((row) => row.connections === c).map((row) => row.perSecond);
    return { c, fall: Math.max(0, ...rates.flatMap((rate, i) => rates.slice(i + 1).map((later) => 1 - later / rate))) };
  });
  const [batch, singles] = r.batch;
  const speedup = singles.answerMs / batch.answerMs;
  const [fewest, most] = [r.nearby[0], r.nearby[r.nearby.length - 1]];
  const history = Math.max(...r.history.slice(1).map((row) => row.p50)) / r.history[0].p50;
  const vouchers = judged.filter(
    (row) => row.name.startsWith('GET /partner/') || row.name.startsWith('POST /partner/'),
  );
  const worstVoucher = vouchers.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const [baseRun, largerRun] = [r.expiry[0], r.expiry[r.expiry.length - 1]];
  return [
    {
      name: 'A warm `npm start` ≤ 1.2× a bare `firebase emulators:start`',
      measured: `${x(r.start.ratio)} (${r.start.startS.toFixed(1)} vs ${r.start.bareS.toFixed(1)} s)`,
      met: r.start.ratio <= 1.2,
    },
    ...r.cold.map((row) => ({
      name: `Cold start ≤ 1.15× the floor, ${row.name}`,
      measured: `${x(row.ratio)} (${ms(row.apiMs)} vs ${ms(row.floorMs)} ms)`,
      met: row.ratio <= 1.15,
    })),
    {
      name: 'Warm p50 ≤ 1.2× the floor, every endpoint, c=1 and c=16',
      measured: `worst ${x(worst.ratio)} (${worst.name} @ c=${worst.connections}); ${judged.filter((row) => row.ratio > 1.2).length} of ${judged.length} above`,
      met: worst.ratio <= 1.2,
    },
    { name: 'Throughput: zero errors', measured: `${faults} non-2xx, errors or timeouts`, met: faults === 0 },
    {
      name: 'Throughput flat as users grow: req/s falls ≤ 20% from any size to a larger one',
      measured: falls.map(({ c, fall }) => `c=${c}: largest fall ${(fall * 100).toFixed(0)}%`).join(', '),
      met: falls.every(({ fall }) => fall <= 0.2),
    },
    {
      name: `A backlog of ${r.plan.batch.items} in one batch answers ≥ 5× sooner than singles one at a time`,
      measured: `${x(speedup)} (${ms(batch.answerMs)} vs ${ms(singles.answerMs)} ms)`,
      met: speedup >= 5,
    },
    {
      name: "The batch's effects complete with zero contention",
      measured: `${batch.retried} transactions retried, ${batch.notOk} answers not 200, ${batch.failedEffects} failed effects`,
      met: batch.retried + batch.notOk + batch.failedEffects === 0,
    },
    {
      name: `Kiosks near a point flat as the fleet grows elsewhere (${n(fewest.fleet)} → ${n(most.fleet)}): p50 ≤ 1.2×`,
      measured: `${x(most.p50 / fewest.p50)} (${ms(most.p50)} vs ${ms(fewest.p50)} ms)`,
      met: most.p50 / fewest.p50 <= 1.2,
    },
    {
      name: 'A history page flat as the history grows: p50 ≤ 1.2×',
      measured: `${x(history)} (the slowest page of the long history against the short one)`,
      met: history <= 1.2,
    },
    {
      name: 'Voucher check and use ≤ 1.2× their floor, c=1 and c=16',
      measured: `worst ${x(worstVoucher.ratio)} (${worstVoucher.name} @ c=${worstVoucher.connections}); ${vouchers.length} rows judged`,
      met: vouchers.length === 4 && worstVoucher.ratio <= 1.2,
    },
    {
      name: `The expiry run with 10× the users who have nothing to expire (${n(baseRun.idle)} → ${n(largerRun.idle)}): time ≤ 1.2×`,
      measured: `${x(largerRun.ms / baseRun.ms)} (${ms(largerRun.ms)} vs ${ms(baseRun.ms)} ms; ${largerRun.read} vs ${baseRun.read} users read)`,
      met: largerRun.ms / baseRun.ms <= 1.2,
    },
  ];
}

/**
 * @param {Results} r
 * @param {{ command: string, durationMin: number }} run
 */
export function report(r, run) {
  const { machine: m, plan } = r;
  const written = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const failures = r.warm.filter((row) => row.firstFailure);
  return `# Benchmarks

Written by \`${run.command}\` on ${written} UTC in ${run.durationMin.toFixed(0)} min; do not edit by hand. ${m.cpu}, ${m.cores} cores, Node ${m.node}; 1-minute load average ${m.loadBefore.toFixed(2)} before, ${m.loadAfter.toFixed(2)} after.

Every instance is \`@google-cloud/functions-framework --target=api\` on the built code, a process of its own, against the Firestore and Auth emulators; all HTTP load is autocannon's. A request's **floor** is the empty function (scripts/bench/floor.js) on the same host plus its **backend** time: how long the endpoint's own Firestore, Auth and SMTP calls were in flight inside that very request (the union of their intervals, answered as \`Server-Timing\` by src/adapters/callTiming.ts under the bench only). Times in ms.

## Targets

${table(
  ['Target', 'Measured', 'Verdict'],
  judge(r).map((t) => [t.name, t.measured, t.met ? 'met' : '**MISSED**']),
)}

## Cold start: spawn → first 200, medians of ${plan.coldRuns}

${table(
  ['Request', 'api', 'Empty function', 'Backend of the first request', 'Floor', 'Ratio'],
  r.cold.map((row) => [row.name, ms(row.apiMs), ms(row.emptyMs), ms(row.backendMs), ms(row.floorMs), x(row.ratio)]),
)}

## Warm latency: the endpoint against the HTTP floor p50 + its backend p50

${table(
  ['c', 'Endpoint', 'n', 'p50', 'p95', 'p99', 'HTTP floor p50', 'Backend p50', 'Ratio', 'Failed'],
  r.warm.map((row) => [
    row.connections,
    row.name,
    ...percentiles(row),
    ms(row.httpFloor),
    ms(row.backend),
    `${x(row.ratio)}${row.judged ? '' : ' (not judged)'}`,
    row.failed,
  ]),
)}

Not judged: a row where over 10% failed, and \`PUT /user/{id}/push-token\` at c=16 (a query inside a transaction: the emulator's locks serialise concurrent ones; one short round).${failures.map((row) => `\n- ${row.name} @ c=${row.connections}: first failure ${row.firstFailure?.replaceAll('|', '\\|')}`).join('')}

## A backlog of ${plan.batch.items}: one batch against single submissions, medians of ${plan.batch.rounds} (counts summed)

${table(
  [
    'Upload',
    'Answer',
    'Every effect complete',
    'Not 200',
    'Transactions retried',
    'Folds of the hot documents',
    'Failed effects',
  ],
  r.batch.map((row) => [
    row.mode,
    ms(row.answerMs),
    ms(row.effectsMs),
    row.notOk,
    row.retried,
    row.folds,
    row.failedEffects,
  ]),
)}

## Throughput of POST /kiosk/transaction as the users grow, medians of ${plan.throughput.rounds} runs of ${plan.throughput.seconds} s

${table(
  ['Users', 'Connections', 'req/s', 'p50', 'p99', 'non-2xx', 'Errors', 'Timeouts'],
  r.throughput.map((row) => [
    n(row.users),
    row.connections,
    row.perSecond.toFixed(0),
    ms(row.p50),
    ms(row.p99),
    row.non2xx,
    row.errors,
    row.timeouts,
  ]),
)}

## Kiosks near a point as the fleet grows elsewhere, c=1

${table(
  [
    'Kiosks elsewhere',
    'Found',
    'Documents its ranges hold',
    'n',
    'p50',
    'p95',
    'p99',
    'Backend p50',
    'p50 above backend',
    'Failed',
  ],
  r.nearby.map((row) => [
    n(row.fleet),
    `${row.found} of ${row.near}`,
    row.read,
    ...percentiles(row),
    ms(row.backend),
    ms(row.p50 - row.backend),
    row.failed,
  ]),
)}

The emulator answers a range query by scanning the collection, so the backend time grows with the fleet whatever the query returns; deployed Firestore reads the index range alone. "p50 above backend" is the service's own part.

## A page of history as the history grows, c=1, pages of 10

${table(
  ['Entries', 'Page', 'Shown', 'n', 'p50', 'p95', 'p99', 'Backend p50', 'p50 above backend', 'Failed'],
  r.history.map((row) => [
    n(row.entries),
    row.page,
    row.shown,
    ...percentiles(row),
    ms(row.backend),
    ms(row.p50 - row.backend),
    row.failed,
  ]),
)}

## Webhook delivery lag, on the emulators

${table(
  ['Events', 'One every', 'Measured from', 'n', 'p50', 'p95', 'p99', 'Receiver calls', 'Not verified'],
  [
    ["the commit (the event document's create time)", r.webhooks.fromCommit],
    ["the API's answer", r.webhooks.fromAnswer],
  ].map(([from, lag]) => [
    r.webhooks.events,
    `${r.webhooks.intervalMs} ms`,
    from,
    ...percentiles(/** @type {typeof r.webhooks.fromCommit} */ (lag)),
    r.webhooks.calls,
    r.webhooks.unverified,
  ]),
)}

A webhook registered by the service (on the emulators: http to loopback allowed) to a receiver on 127.0.0.1, then that many \`POST /admin/users/{id}/adjustments\` at a steady pace (after ${plan.webhooks.warmUp} at the same pace, not measured), each one \`points.adjusted\` event; lag to the receiver's 2xx. The fan-out trigger and the task queue function run on the functions emulator and the tasks emulator, a worker process per function on this machine: deployed, Cloud Tasks and Cloud Run set the pace. Every delivery is verified with the \`standardwebhooks\` package.

## A person's data exported as the history grows, c=1, medians of ${plan.export.rounds}

${table(
  ['Ledger entries, and as many transactions', 'Bytes', 'Time to the last byte', 'RSS warm', 'Peak RSS'],
  r.exports.map((row) => [
    n(row.entries),
    n(row.bytes),
    ms(row.ms),
    `${row.warm.rssMiB.toFixed(0)} MiB`,
    `${row.served.peakMiB.toFixed(0)} MiB`,
  ]),
)}

\`GET /user/{id}/export\`, each size on an instance of its own warmed by one export of the shortest history. RSS warm: the instance's resident memory after that; peak RSS: the most it ever held (VmHWM of its process, /proc), the export's streaming included.

## The expiry run as users with nothing to expire grow, medians of ${plan.expiry.rounds}

${table(
  ['Users due', 'Users with nothing to expire', 'Users the run read', 'Time', 'Runs'],
  r.expiry.map((row) => [row.due, n(row.idle), n(row.read), ms(row.ms), row.runs.map(ms).join(', ')]),
)}

\`runExpiry\` (services/pointsExpiry.ts, the daily function's and \`expiry:run\`'s code) called in a worker thread of the bench per size, each size a project of its own; every due user's points expire in the run, the others' were added this month. The run reads only the users due (the range on \`pointsOldestMonth\`); the emulator answers a range query by scanning the collection, so its time may grow with the users it does not read, where deployed Firestore reads the index range alone.

${consoleSection(r.console)}`;
}

/**
 * The console's section: whole in the full report, and alone from `npm run bench -- --console`,
 * which puts it in place of the one BENCHMARKS.md has (see spliceConsoleSection).
 * @param {ConsoleResults} c
 */
export function consoleSection(c) {
  const met = c.gzipTotal <= CONSOLE_JS_BUDGET_KB * 1024;
  return `${CONSOLE_HEADING}

Measured on ${c.measuredAt.slice(0, 16).replace('T', ' ')} UTC (by \`npm run bench\`, or alone by \`npm run bench -- --console\`). Chromium (Playwright) against the console on the Hosting emulator, signed in as an operator, ${n(c.kiosks)} kiosks in the fleet, an empty HTTP cache each run. Sizes are of every script the first page (Fleet) loads, gzip-compressed here as Hosting compresses what it serves.

| Target | Measured | Verdict |
| --- | --- | --- |
| First page's compressed JavaScript ≤ ${CONSOLE_JS_BUDGET_KB} KB | ${kb(c.gzipTotal)} KB | ${met ? 'met' : '**MISSED**'} |

Navigation → Fleet table rendered, median of ${c.runs}: **${ms(c.medianMs)} ms** (runs: ${c.renderedMs.map(ms).join(', ')}).

${table(
  ['Script', 'Bytes', 'Gzip bytes'],
  c.scripts.map((script) => [`\`${script.url}\``, n(script.bytes), n(script.gzip)]),
)}
`;
}

const CONSOLE_HEADING = '## Operator console: first page';

/**
 * BENCHMARKS.md with its console section replaced by `section` (or added at its end).
 * @param {string} markdown
 * @param {string} section
 */
export function spliceConsoleSection(markdown, section) {
  const start = markdown.indexOf(CONSOLE_HEADING);
  if (start === -1) return `${markdown.trimEnd()}\n\n${section}`;
  const next = markdown.indexOf('\n## ', start + CONSOLE_HEADING.length);
  return `${markdown.slice(0, start)}${section}${next === -1 ? '' : markdown.slice(next)}`;
}
