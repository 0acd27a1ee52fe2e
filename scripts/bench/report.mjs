// @ts-check
// BENCHMARKS.md from what the bench measured: the targets, then one table per
// section. Every figure comes from the results; the text says only what each table times.

const ms = (/** @type {number} */ v) => (!Number.isFinite(v) ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const x = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
const n = (/** @type {number} */ v) => v.toLocaleString('en-US');
/** @param {string[]} head @param {unknown[][]} rows */
const table = (head, rows) => [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');

/**
 * The targets of BENCHMARKS.md, judged.
 * @param {any} r the results (run.mjs) with `start` (start.mjs)
 */
export function judge(r) {
  const judged = r.warm.filter((/** @type {any} */ row) => row.judged);
  const worst = judged.reduce((/** @type {any} */ a, /** @type {any} */ b) => (b.ratio > a.ratio ? b : a));
  const faults = r.throughput.reduce(
    (/** @type {number} */ sum, /** @type {any} */ row) => sum + row.non2xx + row.errors + row.timeouts,
    0,
  );
  const falls = [...new Set(r.throughput.map((/** @type {any} */ row) => row.connections))].map((c) => {
    const rates = r.throughput
      .filter((/** @type {any} */ row) => row.connections === c)
      .map((/** @type {any} */ row) => row.perSecond);
    return {
      c,
      fall: Math.max(
        0,
        ...rates.flatMap((/** @type {number} */ rate, /** @type {number} */ i) =>
          rates.slice(i + 1).map((/** @type {number} */ later) => 1 - later / rate),
        ),
      ),
    };
  });
  const [batch, singles] = r.batch;
  const nearby = r.nearby.at(-1).p50 / r.nearby[0].p50;
  const history = Math.max(...r.history.slice(1).map((/** @type {any} */ row) => row.p50)) / r.history[0].p50;
  const cold = (/** @type {any} */ row) => ({
    name: `Cold start ≤ 1.15× the floor, ${row.name}`,
    measured: `${x(row.ratio)} (${ms(row.apiMs)} vs ${ms(row.floorMs)} ms)`,
    met: row.ratio <= 1.15,
  });
  return [
    ...(r.start
      ? [
          {
            name: 'A warm `npm start` ≤ 1.2× a bare `firebase emulators:start`',
            measured: `${x(r.start.ratio)} (${r.start.startS.toFixed(1)} vs ${r.start.bareS.toFixed(1)} s)`,
            met: r.start.ratio <= 1.2,
          },
        ]
      : []),
    ...r.cold.map(cold),
    {
      name: 'Warm p50 ≤ 1.2× the floor, every endpoint, c=1 and c=16',
      measured: `worst ${x(worst.ratio)} (${worst.name} @ c=${worst.connections}); ${judged.filter((/** @type {any} */ row) => row.ratio > 1.2).length} of ${judged.length} above`,
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
      measured: `${x(singles.answerMs / batch.answerMs)} (${ms(batch.answerMs)} vs ${ms(singles.answerMs)} ms)`,
      met: singles.answerMs / batch.answerMs >= 5,
    },
    {
      name: "The batch's effects complete with zero contention",
      measured: `${batch.retried} transactions retried, ${batch.notOk} answers not 200, ${batch.failedEffects} failed effects`,
      met: batch.retried + batch.notOk + batch.failedEffects === 0,
    },
    {
      name: 'Kiosks near a point flat as the fleet grows elsewhere: p50 ≤ 1.2×',
      measured: `${x(nearby)} (${ms(r.nearby.at(-1).p50)} vs ${ms(r.nearby[0].p50)} ms)`,
      met: nearby <= 1.2,
    },
    {
      name: 'A history page flat as the history grows: p50 ≤ 1.2×',
      measured: `${x(history)} (slowest page of the long history vs the short one)`,
      met: history <= 1.2,
    },
  ];
}

/**
 * @param {any} r
 * @param {{ command: string, durationMin: number }} run
 */
export function report(r, run) {
  const targets = judge(r);
  const m = r.machine;
  const load = (/** @type {import('./host.mjs').Load | any} */ row) => [row.n, ms(row.p50), ms(row.p95), ms(row.p99)];
  return `# Benchmarks

Written by \`${run.command}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${run.durationMin.toFixed(0)} min). Do not edit by hand: run it again.
${m.cpu}, ${m.cores} cores, Node ${m.node}; 1-minute load average ${m.loadBefore.toFixed(2)} before, ${m.loadAfter.toFixed(2)} after.
Every instance is \`@google-cloud/functions-framework --target=api\` on the built code, a process of its own, against the Firestore and Auth emulators; all HTTP load is autocannon's. A request's **floor** is the empty function (scripts/bench/floor.js) on the same host plus the time the endpoint's own Firestore, Auth and SMTP calls took inside that very request (the union of their intervals, \`Server-Timing: backend\`, src/adapters/callTiming.ts, on only under the bench). Latencies in ms.

## Targets

${table(
  ['Target', 'Measured', 'Verdict'],
  targets.map((t) => [t.name, t.measured, t.met ? 'met' : '**MISSED**']),
)}
${
  r.start
    ? `
## Start: launch → first 200 from the API, seconds

${table(
  ['Stack', 'Median', 'Runs'],
  [
    [
      '`npm start` (stack script, functions built)',
      r.start.startS.toFixed(1),
      r.start.start.map((/** @type {number} */ s) => s.toFixed(1)).join(', '),
    ],
    [
      'bare `firebase emulators:start`',
      r.start.bareS.toFixed(1),
      r.start.bare.map((/** @type {number} */ s) => s.toFixed(1)).join(', '),
    ],
  ],
)}
`
    : ''
}
## Cold start: spawn → first 200 (medians of ${r.plan.coldRuns})

${table(
  ['Request', 'api', 'Empty function', 'Backend calls of the first request', 'Floor', 'Ratio'],
  r.cold.map((/** @type {any} */ row) => [
    row.name,
    ms(row.apiMs),
    ms(row.emptyMs),
    ms(row.backendMs),
    ms(row.floorMs),
    x(row.ratio),
  ]),
)}

## Warm latency against the floor

Per endpoint, rounds of the floor's HTTP part then the endpoint, on warm instances. Floor = HTTP floor p50 + backend p50.

${table(
  ['c', 'Endpoint', 'n', 'p50', 'p95', 'p99', 'HTTP floor p50', 'Backend p50', 'Ratio', 'Failed'],
  r.warm.map((/** @type {any} */ row) => [
    row.connections,
    row.name,
    ...load(row).slice(0),
    ms(row.httpFloor),
    ms(row.backend),
    row.judged ? x(row.ratio) : `${x(row.ratio)} (not judged)`,
    row.failed,
  ]),
)}
${r.warm
  .filter((/** @type {any} */ row) => row.firstFailure)
  .map(
    (/** @type {any} */ row) =>
      `\n- ${row.name} @ c=${row.connections}: first failure ${row.firstFailure.replaceAll('|', '\\|')}`,
  )
  .join('')}

Not judged: a row where over 10% failed, and \`PUT /user/{id}/push-token\` at c=16 (a query inside a transaction: the emulator's locks serialise concurrent ones; one short round).

## A backlog: one batch against single submissions (medians of ${r.plan.batch.rounds}; counts summed)

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
  r.batch.map((/** @type {any} */ row) => [
    row.mode,
    ms(row.answerMs),
    ms(row.effectsMs),
    row.notOk,
    row.retried,
    row.folds,
    row.failedEffects,
  ]),
)}

## Throughput of POST /kiosk/transaction as the users grow (medians of ${r.plan.throughput.rounds} runs of ${r.plan.throughput.seconds} s)

${table(
  ['Users', 'Connections', 'req/s', 'p50', 'p99', 'non-2xx', 'Errors', 'Timeouts'],
  r.throughput.map((/** @type {any} */ row) => [
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

## Kiosks near a point as the fleet grows elsewhere (c=1)

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
  r.nearby.map((/** @type {any} */ row) => [
    n(row.fleet),
    `${row.found} of ${row.near}`,
    row.read,
    ...load(row),
    ms(row.backend),
    ms(row.p50 - row.backend),
    row.failed,
  ]),
)}

On the emulator a range query scans the whole collection, so the backend time grows with the fleet whatever the query returns; deployed Firestore reads the index range alone. "p50 above backend" is the service's own part.

## A page of history as the history grows (c=1, pages of 10)

${table(
  ['Entries', 'Page', 'Shown', 'n', 'p50', 'p95', 'p99', 'Backend p50', 'p50 above backend', 'Failed'],
  r.history.map((/** @type {any} */ row) => [
    n(row.entries),
    row.page,
    row.shown,
    ...load(row),
    ms(row.backend),
    ms(row.p50 - row.backend),
    row.failed,
  ]),
)}
`;
}
