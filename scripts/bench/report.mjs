// @ts-check
// BENCHMARKS.md from what the bench measured: the targets judged, then one table per
// section, each drawn by the one renderer below from a heading, rows and columns.
// How each figure is measured is told once, in docs/performance.md.

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
 * @typedef {{ measuredAt: string, kiosks: number, runs: number, renderedMs: number[], medianMs: number,
 *   scripts: { url: string, bytes: number, gzip: number }[], gzipTotal: number }} ConsoleResults
 */

/** The contract's budget for the console's first page: compressed JavaScript. */
const CONSOLE_JS_BUDGET_KB = 250;
const CONSOLE_HEADING = 'Operator console: first page';

const ms = (/** @type {number} */ v) => (!Number.isFinite(v) ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const x = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
const n = (/** @type {number} */ v) => v.toLocaleString('en-US');
const mib = (/** @type {number} */ v) => `${v.toFixed(0)} MiB`;
const verdict = (/** @type {boolean} */ met) => (met ? 'met' : '**MISSED**');
/**
 * @template {{ ratio: number }} T
 * @param {T[]} rows
 */
const worstOf = (rows) => rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));

/**
 * Every column a table may have, by the key of its rows: its header, and how a value is written (as is if none).
 * @type {Record<string, [string, ((value: any) => string)?]>}
 */
const COLUMNS = {
  target: ['Target'],
  measured: ['Measured'],
  verdict: ['Verdict'],
  connections: ['c'],
  name: ['Endpoint'],
  n: ['n'],
  p50: ['p50', ms],
  p95: ['p95', ms],
  p99: ['p99', ms],
  apiMs: ['api', ms],
  emptyMs: ['Empty function', ms],
  backendMs: ['Backend of the first request', ms],
  floorMs: ['Floor', ms],
  httpFloor: ['HTTP floor p50', ms],
  backend: ['Backend p50', ms],
  aboveBackend: ['p50 above backend', ms],
  ratio: ['Ratio', x],
  judged: ['Judged', (judged) => (judged ? 'yes' : 'no')],
  failed: ['Failed'],
  firstFailure: ['First failure', (failure) => failure ?? ''],
  mode: ['Upload'],
  answerMs: ['Answer', ms],
  effectsMs: ['Every effect complete', ms],
  notOk: ['Not 200'],
  retried: ['Transactions retried'],
  folds: ['Folds of the hot documents'],
  failedEffects: ['Failed effects'],
  users: ['Users', n],
  perSecond: ['req/s', (rate) => rate.toFixed(0)],
  non2xx: ['non-2xx'],
  errors: ['Errors'],
  timeouts: ['Timeouts'],
  fleet: ['Kiosks elsewhere', n],
  nearFound: ['Found of those near'],
  read: ['Documents read', n],
  entries: ['Entries', n],
  page: ['Page'],
  shown: ['Shown'],
  from: ['Lag from'],
  calls: ['Receiver calls'],
  unverified: ['Not verified'],
  bytes: ['Bytes', n],
  ms: ['Time', ms],
  rssWarm: ['RSS warm', mib],
  rssPeak: ['Peak RSS', mib],
  due: ['Users due'],
  idle: ['Users with nothing to expire', n],
  runs: ['Runs', (runs) => runs.map(ms).join(', ')],
  script: ['Script', (url) => `\`${url}\``],
  gzip: ['Gzip bytes', n],
};

/**
 * One section of BENCHMARKS.md: a heading, then a table of `rows` with the columns named by `keys`, then a note
 * when the table needs one.
 * @param {string} heading
 * @param {string} keys the keys of COLUMNS, space-separated
 * @param {object[]} rows
 * @param {string} [note]
 */
function section(heading, keys, rows, note) {
  const columns = keys.split(' ').map((key) => ({ key, header: COLUMNS[key][0], write: COLUMNS[key][1] ?? String }));
  const lines = [columns.map(({ header }) => header), columns.map(() => '---')];
  for (const row of /** @type {Record<string, unknown>[]} */ (rows))
    lines.push(columns.map(({ key, write }) => write(row[key]).replaceAll('|', '\\|')));
  const table = lines.map((line) => `| ${line.join(' | ')} |`).join('\n');
  return [`## ${heading}`, table, ...(note ? [note] : [])].join('\n\n');
}

/**
 * Every target of BENCHMARKS.md: what it asks, what was measured, met or not.
 * @param {Results} r
 */
export function judge(r) {
  const judged = r.warm.filter((row) => row.judged);
  const worst = worstOf(judged);
  const faults = r.throughput.reduce((sum, row) => sum + row.non2xx + row.errors + row.timeouts, 0);
  const falls = [...new Set(r.throughput.map((row) => row.connections))].map((c) => {
    const rates = r.throughput.filter((row) => row.connections === c).map((row) => row.perSecond);
    return { c, fall: Math.max(0, ...rates.flatMap((rate, i) => rates.slice(i + 1).map((later) => 1 - later / rate))) };
  });
  const [batch, singles] = r.batch;
  const speedup = singles.answerMs / batch.answerMs;
  const [fewest, most] = [r.nearby[0], r.nearby[r.nearby.length - 1]];
  const history = Math.max(...r.history.slice(1).map((row) => row.p50)) / r.history[0].p50;
  const vouchers = judged.filter((row) => /^(GET|POST) \/partner\//.test(row.name));
  const worstVoucher = worstOf(vouchers);
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
  const { machine: m, plan, webhooks } = r;
  const written = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const aboveBackend = (/** @type {{ p50: number, backend: number }} */ row) => row.p50 - row.backend;
  // Why the two targets on a range query cannot be met here: what the tables show is the emulator's.
  const scans = 'On the emulator a range query scans the whole collection; deployed Firestore reads the range alone.';
  const sections = [
    section(
      'Targets',
      'target measured verdict',
      judge(r).map((t) => ({ target: t.name, measured: t.measured, verdict: verdict(t.met) })),
    ),
    section(
      `Cold start: spawn → first 200, medians of ${plan.coldRuns}`,
      'name apiMs emptyMs backendMs floorMs ratio',
      r.cold,
    ),
    section(
      'Warm latency: the endpoint against the HTTP floor p50 + its backend p50',
      'connections name n p50 p95 p99 httpFloor backend ratio judged failed firstFailure',
      r.warm,
      'Not judged: over 10% failed, or `PUT /user/{id}/push-token` at c=16 (the emulator serialises its transactional query; one short round).',
    ),
    section(
      `A backlog of ${plan.batch.items}: one batch against single submissions, medians of ${plan.batch.rounds} (counts summed)`,
      'mode answerMs effectsMs notOk retried folds failedEffects',
      r.batch,
    ),
    section(
      `Throughput of POST /kiosk/transaction as the users grow, medians of ${plan.throughput.rounds} runs of ${plan.throughput.seconds} s`,
      'users connections perSecond p50 p99 non2xx errors timeouts',
      r.throughput,
    ),
    section(
      'Kiosks near a point as the fleet grows elsewhere, c=1',
      'fleet nearFound read n p50 p95 p99 backend aboveBackend failed',
      r.nearby.map((row) => ({ ...row, nearFound: `${row.found} of ${row.near}`, aboveBackend: aboveBackend(row) })),
      scans,
    ),
    section(
      'A page of history as the history grows, c=1, pages of 10',
      'entries page shown n p50 p95 p99 backend aboveBackend failed',
      r.history.map((row) => ({ ...row, aboveBackend: aboveBackend(row) })),
    ),
    section(
      `Webhook delivery lag on the emulators: ${webhooks.events} events, one every ${webhooks.intervalMs} ms, after ${plan.webhooks.warmUp} not measured`,
      'from n p50 p95 p99 calls unverified',
      [
        { ...webhooks, ...webhooks.fromCommit, from: "the commit (the event document's create time)" },
        { ...webhooks, ...webhooks.fromAnswer, from: "the API's answer" },
      ],
    ),
    section(
      `A person's data exported as the history grows (as many transactions as entries), c=1, medians of ${plan.export.rounds}`,
      'entries bytes ms rssWarm rssPeak',
      r.exports.map((row) => ({ ...row, rssWarm: row.warm.rssMiB, rssPeak: row.served.peakMiB })),
    ),
    section(
      `The expiry run as users with nothing to expire grow, medians of ${plan.expiry.rounds}`,
      'due idle read ms runs',
      r.expiry,
      scans,
    ),
    consoleSection(r.console),
  ];
  return `# Benchmarks

Written by \`${run.command}\` on ${written} UTC in ${run.durationMin.toFixed(0)} min; do not edit by hand. ${m.cpu}, ${m.cores} cores, Node ${m.node}; 1-minute load average ${m.loadBefore.toFixed(2)} before, ${m.loadAfter.toFixed(2)} after. How each figure is measured, and what a floor is: [docs/performance.md](docs/performance.md). Times in ms.

${sections.join('\n\n')}
`;
}

/**
 * The console's sections: in the full report, and alone from `npm run bench -- --console`,
 * which puts them in place of those BENCHMARKS.md has (see spliceConsoleSection).
 * @param {ConsoleResults} c
 */
export function consoleSection(c) {
  const gzipKb = c.gzipTotal / 1024;
  const figures = [
    {
      target: `First page's compressed JavaScript ≤ ${CONSOLE_JS_BUDGET_KB} KB`,
      measured: `${gzipKb.toFixed(1)} KB`,
      verdict: verdict(gzipKb <= CONSOLE_JS_BUDGET_KB),
    },
    {
      target: `Navigation → Fleet table rendered, ${n(c.kiosks)} kiosks, median of ${c.runs}`,
      measured: `${ms(c.medianMs)} ms (runs: ${c.renderedMs.map(ms).join(', ')})`,
      verdict: 'no target',
    },
  ];
  const measuredAt = c.measuredAt.slice(0, 16).replace('T', ' ');
  return [
    section(`${CONSOLE_HEADING}, measured ${measuredAt} UTC`, 'target measured verdict', figures),
    section(
      `${CONSOLE_HEADING}: its scripts`,
      'script bytes gzip',
      c.scripts.map((s) => ({ ...s, script: s.url })),
    ),
  ].join('\n\n');
}

/**
 * BENCHMARKS.md with its console sections (the last ones, as report() writes them) replaced by `consoleMarkdown`.
 * @param {string} markdown
 * @param {string} consoleMarkdown
 */
export function spliceConsoleSection(markdown, consoleMarkdown) {
  const start = markdown.indexOf(`## ${CONSOLE_HEADING}`);
  return `${(start === -1 ? markdown : markdown.slice(0, start)).trimEnd()}\n\n${consoleMarkdown}\n`;
}
