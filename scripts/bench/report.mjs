// @ts-check
// BENCHMARKS.md, written from the measured results only (never edit it by hand): the
// targets judged, and each section's figures; the diagnostic sections' parts come
// from report-diagnostics.mjs when they ran.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.mjs';
import { fmtMb, fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';
import { batchParts, batchTargets } from './report-batch.mjs';
import { nearbyParts, nearbyTargets } from './report-nearby.mjs';
import {
  DIAGNOSE_COMMAND,
  cpuBreakdownParts,
  moduleLoadParts,
  restParts,
  serviceCodeShares,
} from './report-diagnostics.mjs';

/** @typedef {import('./run.mjs').Results} Results */

const TARGETS = { coldStartRatio: 1.15, warmP50Ratio: 1.2, throughputSpread: 0.2 };

/** Ratios are judged as printed (two decimals), so a printed 1.15 never reads "missed". */
const within = (/** @type {number} */ ratio, /** @type {number} */ target) =>
  Number.isFinite(ratio) && Math.round(ratio * 100) / 100 <= target;

const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
const mib = (/** @type {number} */ bytes) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const verdict = (/** @type {boolean} */ ok) => (ok ? 'met' : '**MISSED**');

/**
 * Not judged: a row where more than 10% of the endpoint's requests failed (no
 * meaningful p50), and concurrent transactions with a query, which the emulator
 * deadlocks (the service retries them for up to 30 s, the floor's SDK gives up sooner).
 * @param {Results['warm'][number]} row
 */
const judged = (row) => row.failed.endpoint <= 0.1 * row.attempted && !(row.emulatorLocks && row.concurrency > 1);

/**
 * The targets, judged. Also the two summary lines the outer script prints last.
 * @param {Results} results
 */
function summarize(results) {
  const headline = results.cold[0];
  const judgedRows = results.warm.filter(judged);
  const notJudged = results.warm.filter((row) => !judged(row));
  const worst = judgedRows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const warmMissed = judgedRows.filter((row) => !within(row.ratio, TARGETS.warmP50Ratio));
  const errors = results.throughput.reduce((sum, row) => sum + row.non2xx + row.errors + row.timeouts, 0);
  // A scan that grows with the data makes req/s fall as users are added; so the
  // target is judged on the largest fall from a smaller data size to a larger one.
  // (The max-min spread is shown too: 10 users at 64 connections is slower for
  // contention, several awards per user in flight, not for data.)
  const spreads = [...new Set(results.throughput.map((row) => row.connections))].map((connections) => {
    const rows = results.throughput.filter((row) => row.connections === connections).sort((a, b) => a.users - b.users);
    const rates = rows.map((row) => row.perSecond);
    const fall = Math.max(
      0,
      ...rates.flatMap((smaller, i) => rates.slice(i + 1).map((larger) => (smaller - larger) / smaller)),
    );
    return {
      connections,
      fall,
      spread: (Math.max(...rates) - Math.min(...rates)) / Math.max(...rates),
      min: Math.min(...rates),
      max: Math.max(...rates),
    };
  });
  const worstEndpoint = `${worst.name} @ c=${worst.concurrency}`;
  return {
    coldRatio: headline.ratio,
    worstWarm: { ratio: worst.ratio, endpoint: worstEndpoint },
    warmMissed: warmMissed.map((row) => ({ name: row.name, concurrency: row.concurrency, ratio: row.ratio })),
    throughputErrors: errors,
    spreads,
    targets: [
      ...results.cold.map((row, i) => ({
        name: `Cold start ≤ ${TARGETS.coldStartRatio}× the floor, ${row.request}${i === 0 ? ' (the headline figure)' : ''}`,
        measured: `${fmtRatio(row.ratio)}× (${fmtMs(row.api.firstResponseMs)} vs ${fmtMs(row.floor.firstResponseMs)} ms)`,
        met: within(row.ratio, TARGETS.coldStartRatio),
      })),
      {
        name: `Warm p50 ≤ ${TARGETS.warmP50Ratio}× (HTTP floor + Firestore floor), every endpoint, c=1 and c=16`,
        measured:
          `worst ${fmtRatio(worst.ratio)}× (${worstEndpoint}); ${warmMissed.length} of ${judgedRows.length} above` +
          (notJudged.length
            ? `; not judged: ${notJudged.map((row) => `${row.name} @ c=${row.concurrency}`).join(', ')}`
            : ''),
        met: warmMissed.length === 0,
      },
      { name: 'Throughput: zero errors', measured: `${errors} non-2xx/errors/timeouts`, met: errors === 0 },
      {
        name: `Throughput flat as data grows, ${results.plan.throughput.users.map((n) => n.toLocaleString('en-US')).join(' → ')} users: req/s falls by ≤ ${TARGETS.throughputSpread * 100}% from any size to a larger one`,
        measured: spreads
          .map(
            (s) =>
              `c=${s.connections}: largest fall ${(s.fall * 100).toFixed(0)}% (max-min spread ${(s.spread * 100).toFixed(0)}%)`,
          )
          .join(', '),
        met: spreads.every((s) => s.fall <= TARGETS.throughputSpread),
      },
      ...batchTargets(results),
      ...nearbyTargets(results),
    ],
    lines: [
      `cold-start ratio: ${fmtRatio(headline.ratio)}`,
      `worst warm p50 ratio: ${fmtRatio(worst.ratio)} (${worstEndpoint})`,
    ],
  };
}

/**
 * For warm rows above the target: what section 2 measured about them, and what would close the gap.
 * @param {Results} results
 * @param {ReturnType<typeof summarize>} summary
 */
function warmMissReason(results, summary) {
  const missedRows = results.warm.filter((row) =>
    summary.warmMissed.some((m) => row.name === m.name && row.concurrency === m.concurrency),
  );
  const worstSameHost = Math.max(...missedRows.map((row) => row.sameHostRatio));
  const shares = serviceCodeShares(results);
  const atC16 = missedRows.every((row) => row.concurrency > 1);
  return [
    `Measured reason: against the same-host floor (the same Firestore work inside a minimal \`onRequest\` function on the same host, sent the same requests) these rows are at most ${fmtRatio(worstSameHost)}×` +
      (shares
        ? `, and the service’s own code is ${(100 * shares[0]).toFixed(0)}–${(100 * shares[1]).toFixed(0)}% of a warm request’s CPU in the profiled endpoints (section 2, CPU breakdown).`
        : `; how much of a warm request’s CPU is the service’s own code is measured by ${DIAGNOSE_COMMAND} (CPU breakdown), not run this time.`) +
      (atC16
        ? ' Every miss is at c=16, where one process serving 16 requests is CPU-bound and a p50 is mostly queueing behind the others’ CPU: the HTTP floor and the Firestore floor measured in separate processes then add up to less than the same work costs in one process (the CPU breakdown of a --diagnose run shows where it goes: HTTP stack, Firestore client, per-request domains), so the ratio to their sum overstates what the endpoint adds.'
        : ''),
    '',
    (shares
      ? 'What would close it: not the service’s code, which is too small a part of each request to account for the gap. Against'
      : 'What would close it: against') +
      (worstSameHost <= TARGETS.warmP50Ratio
        ? ` the same-host floor, which measures the HTTP and Firestore floors together in one process, every one of these rows is within the target. `
        : ` the same-host floor, which measures the HTTP and Firestore floors together in one process, ${missedRows
            .filter((row) => row.sameHostRatio > TARGETS.warmP50Ratio)
            .map((row) => `${row.name} @ c=${row.concurrency} (${fmtRatio(row.sameHostRatio)}×)`)
            .join(
              ', ',
            )} remain above the target; their rows in the CPU breakdown, where profiled, show which layer spends the difference. `) +
      'A deployed instance has its vCPU to itself rather than sharing two cores with the emulator and the load generator, which shortens the queueing that dominates p50 at c=16.',
  ];
}

const signedMs = (/** @type {number} */ ms) => `${ms >= 0 ? '+' : '−'}${fmtMs(Math.abs(ms))} ms`;
const spanMs = (/** @type {number[]} */ samples) => `${Math.min(...samples)}–${Math.max(...samples)} ms`;

/**
 * Where each cold start's difference to its floor goes, and for a miss, what would
 * close it. The route's own first-use work is known only from a --diagnose run.
 * @param {Results['cold']} cold
 * @param {Results['firstUse']} firstUse
 */
function coldStartGaps(cold, firstUse) {
  const openNowMs = firstUse?.[0].ms;
  return cold.flatMap((row) => {
    const ownWork = row.request.startsWith('GET /kiosk/') ? openNowMs : 0;
    const listen = row.api.listenMs - row.floor.listenMs;
    const request = row.api.firstResponseMs - row.api.listenMs - (row.floor.firstResponseMs - row.floor.listenMs);
    const lines = [
      `- ${row.request}, api against floor (medians): ${signedMs(listen)} until listening (loading the code), ${signedMs(request)} in the first request, ${signedMs(row.api.cpuMs - row.floor.cpuMs)} of CPU. Single runs spread ${spanMs(row.api.samplesMs)} (api) and ${spanMs(row.floor.samplesMs)} (floor).` +
        (row.request.startsWith('GET /kiosk/') && ownWork !== undefined
          ? ` The route’s own extra work, the first openNow, costs ${fmtMs(ownWork)} ms (first-use table below).`
          : ''),
    ];
    if (!within(row.ratio, TARGETS.coldStartRatio)) {
      const gap = row.api.firstResponseMs - row.floor.firstResponseMs;
      const spread = Math.max(...row.api.samplesMs) - Math.min(...row.api.samplesMs);
      const noisy = `single runs of the same instance spread over ${fmtMs(spread)} ms on this machine, so a run on a quiet machine is the first thing to try.`;
      const explained = `The route’s own first-use work explains ${fmtMs(ownWork)} ms of the ${fmtMs(gap)} ms gap; `;
      lines.push(
        `  - **Missed (${fmtRatio(row.ratio)}×).** ` +
          (ownWork === undefined
            ? `How much of the ${fmtMs(gap)} ms gap is the route’s own first-use work is measured by ${DIAGNOSE_COMMAND}; ${noisy}`
            : ownWork >= gap / 2
              ? `${explained}closing it means taking that work out of the first request.`
              : `${explained}the rest is not work of the route’s own, and ${noisy}`) +
          ' Independently of the code, `minInstances: 1` on `api` keeps cold starts off user requests (at the price of one idle instance).',
      );
    }
    return lines;
  });
}

/** @param {Results} results */
export function writeReport(results) {
  const summary = summarize(results);
  const { machine, plan, cold } = results;
  const command = [
    'npm run bench',
    ...(results.quick || results.diagnose ? ['--'] : []),
    ...(results.quick ? ['--quick'] : []),
    ...(results.diagnose ? ['--diagnose'] : []),
  ].join(' ');
  /** @type {string[]} */
  const out = [];
  const p = (/** @type {string[]} */ ...lines) => out.push(...lines);

  p('# Benchmarks', '');
  p(
    `Written by \`npm run bench\` (scripts/bench.mjs → scripts/bench/run.mjs) on ${results.started.replace('T', ' ').slice(0, 16)} UTC. Do not edit by hand: run the command again.`,
    '',
  );
  p(
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb.toFixed(1)} GB RAM, ${machine.os}, Node ${machine.node}.`,
    `- 1-minute load average before / after: ${machine.loadBefore.toFixed(2)} / ${machine.loadAfter.toFixed(2)} (other work on the machine makes every figure noisier).`,
    `- Command: \`${command}\` (took ${(results.durationS / 60).toFixed(1)} min${results.quick ? ', **--quick: reduced repetitions, not for comparison**' : ''}).`,
    results.diagnose
      ? '- Diagnostic sections included (--diagnose): module load and first use of the route-specific modules (under section 1), where a warm request’s CPU goes (under section 2), FIRESTORE_PREFER_REST vs gRPC.'
      : `- Diagnostic sections not run: module load and first use of the route-specific modules, where a warm request’s CPU goes (CPU profile), FIRESTORE_PREFER_REST vs gRPC. They explain the figures and are judged by no target; ${DIAGNOSE_COMMAND} adds them.`,
    `- Hosting: every function instance is \`@google-cloud/functions-framework --target=api\` on the built code (functions/lib), a process of its own, NODE_ENV=production, the params of functions/.env, against the Firestore and Auth emulators (project ${process.env.GCLOUD_PROJECT}). The functions emulator only runs the Firestore trigger (sections 3 and 3b); background triggers are off in every other section so they do not share the 2 cores with what is timed.`,
    `- Repetitions are modest so the whole run fits in ~10-15 minutes on 2 cores: ${plan.coldRuns} cold starts of each instance per request (api and floor alternating${results.diagnose ? `; ${plan.coldRestRuns} with FIRESTORE_PREFER_REST), ${plan.moduleLoadRuns} module loads each` : ')'}; per endpoint ${plan.warm[1].endpoint} requests at c=1 (endpoint and floor alternating request by request) and ${plan.warm[16].rounds} rounds of ${plan.warm[16].endpoint} at c=16 (batches interleaved with the floors); ${plan.throughput.repeats} run${plan.throughput.repeats > 1 ? 's' : ''} of ${plan.throughput.seconds} s per throughput point. Figures are medians (cold start, ${results.diagnose ? 'module load, ' : ''}throughput) or percentiles over all samples (latency).`,
    '',
  );

  p('## Targets', '');
  p(
    table(
      ['Target', 'Measured', 'Verdict'],
      summary.targets.map((t) => [t.name, t.measured, verdict(t.met)]),
    ),
    '',
  );
  const missed = summary.targets.filter((t) => !t.met);
  if (missed.length === 0) p('Every target was met in this run.', '');
  else {
    p(
      `**${missed.length} target${missed.length > 1 ? 's were' : ' was'} missed in this run:** ${missed.map((t) => `${t.name}: ${t.measured}`).join('; ')}.`,
    );
    if (summary.warmMissed.length) {
      p(
        '',
        `Endpoints above the warm target: ${summary.warmMissed.map((m) => `${m.name} @ c=${m.concurrency} (${fmtRatio(m.ratio)}×)`).join(', ')}.`,
      );
      p('', ...warmMissReason(results, summary));
    }
    p('');
  }

  p('## 1. Cold start', '');
  p(
    'A fresh functions-framework process, timed from spawn to the first 200 of the request, polled on fresh connections every few ms. The floor is a minimal `onRequest` function on the same host and libraries that does the same work (scripts/bench/floor.js): for `GET /kiosk/{id}` one document read, for `GET /user/{id}` the ID-token check and one document read. "Listening" is when the first connection was accepted (code loaded, server up); the rest is the first request (Firestore client start-up, first connection, route code). CPU is the process’s user+system time at the first response (less sensitive to other load than wall time). Peak memory is VmHWM just after the first response. The headline ratio is `GET /kiosk/{id}`: its answer includes `openNow`, so that route evaluates the kiosk’s opening hours (a plain weekly schedule, read without the opening_hours library) in its time zone (a time-zone formatter, ICU data); `GET /user/{id}` needs no route-specific work, so it shows what the rest of the service costs a cold instance.',
    '',
  );
  /**
   * @param {string} label
   * @param {Results['cold'][number]['api']} instance
   */
  const instanceRow = (label, instance) => [
    label,
    fmtMs(instance.firstResponseMs),
    fmtMs(instance.listenMs),
    fmtMs(instance.firstResponseMs - instance.listenMs),
    fmtMs(instance.cpuMs),
    fmtMb(instance.hwmKb),
    instance.samplesMs.join(', '),
  ];
  const coldRows = (/** @type {Results['cold']} */ rows) =>
    rows.flatMap((row) => [
      instanceRow(`${row.request}: api`, row.api),
      instanceRow(`${row.request}: floor`, row.floor),
      [
        `**${row.request}: api ÷ floor**`,
        within(row.ratio, TARGETS.coldStartRatio)
          ? `**${fmtRatio(row.ratio)}**`
          : `**${fmtRatio(row.ratio)} (target ${TARGETS.coldStartRatio})**`,
        fmtRatio(row.api.listenMs / row.floor.listenMs),
        fmtRatio((row.api.firstResponseMs - row.api.listenMs) / (row.floor.firstResponseMs - row.floor.listenMs)),
        fmtRatio(row.api.cpuMs / row.floor.cpuMs),
        fmtRatio(row.api.hwmKb / row.floor.hwmKb),
        '',
      ],
    ]);
  p(
    table(
      [
        'Instance',
        'First response, ms (median)',
        'Listening, ms',
        'First request, ms',
        'CPU, ms',
        'Peak memory, MiB',
        'All runs, ms',
      ],
      coldRows(cold),
    ),
    '',
  );
  p(
    `Target ≤ ${TARGETS.coldStartRatio}×: ${cold.map((row) => `${row.request} ${verdict(within(row.ratio, TARGETS.coldStartRatio))}`).join(', ')}.`,
    '',
  );
  p(...coldStartGaps(cold, results.firstUse), '');

  p(...moduleLoadParts(results));

  p('## 2. Warm latency', '');
  p(
    'One warm functions-framework instance of `api`; requests on keep-alive connections from closed-loop workers (concurrency 1 and 16). Per endpoint, in the same run and interleaved with it (request by request at c=1, in small batches at c=16): the HTTP floor `GET /` (the HTTP path with no work) and the Firestore floor, the same reads and writes the endpoint needs done directly with the Admin SDK (column "Firestore floor does"). The Firestore floor runs in a process of its own (scripts/bench/floor-runner.mjs), each operation in the context functions-framework gives a request (an AsyncLocalStorage store and a domain: both make every asynchronous step dearer, and the endpoint pays that too). For endpoints called with an ID token the floor also verifies that token with firebase-admin, as the endpoint must (against the emulator `verifyIdToken` always looks the account up, an HTTP call; deployed it only checks the signature). Ratio = endpoint p50 ÷ (HTTP floor p50 + Firestore floor p50). CPU/req is the CPU time the instance (or the floor process) used per request over the same batches: unlike wall time it barely moves with other load on the machine, so its ratio is the steadier view of the service’s own overhead. A third reference, not part of the target, is the same-host floor: the Firestore floor run inside a minimal `onRequest` function (scripts/bench/floor.js) on the same host, warm, sent the endpoint’s own request. At c=16 one process serves 16 requests at once and is CPU-bound, so each p50 is mostly queueing behind the others’ CPU; adding two floors measured apart (GET / batches especially cheaply) then understates what HTTP and Firestore work cost together in one process, and the same-host ratio shows how much of a c=16 ratio is the service’s own code. Pushes go to the outbox (PUSH_TRANSPORT=outbox); mail to an SMTP server in the bench process (that floor includes the SMTP send with the same nodemailer settings). Requests use distinct ids (users, idempotency keys, addresses, client IPs) so concurrent requests do not contend on one document, for endpoint and floor alike.',
    '',
  );
  for (const concurrency of [1, 16]) {
    p(`### Concurrency ${concurrency}`, '');
    p(
      table(
        [
          'Endpoint',
          'p50',
          'p95',
          'p99',
          'HTTP floor p50',
          'Firestore floor p50',
          'Ratio (p50)',
          'CPU/req: endpoint; HTTP + Firestore floors',
          'CPU ratio',
          'Same-host floor p50',
          'Ratio to same-host floor: p50 / CPU',
          'Firestore floor does',
          'Failed (endpoint / floor)',
        ],
        results.warm
          .filter((row) => row.concurrency === concurrency)
          .map((row) => [
            row.name,
            fmtMs(row.endpoint.p50),
            fmtMs(row.endpoint.p95),
            fmtMs(row.endpoint.p99),
            fmtMs(row.http.p50),
            fmtMs(row.firestore.p50),
            !judged(row)
              ? `${fmtRatio(row.ratio)} (not judged)`
              : within(row.ratio, TARGETS.warmP50Ratio)
                ? fmtRatio(row.ratio)
                : `**${fmtRatio(row.ratio)}**`,
            `${fmtMs(row.cpuPerRequest.endpoint)}; ${fmtMs(row.cpuPerRequest.http)} + ${fmtMs(row.cpuPerRequest.firestore)}`,
            fmtRatio(row.cpuRatio),
            fmtMs(row.sameHost.p50),
            `${fmtRatio(row.sameHostRatio)} / ${fmtRatio(row.sameHostCpuRatio)}`,
            row.floorLabel,
            row.failed.endpoint + row.failed.floor + row.failed.http
              ? `${row.failed.endpoint} / ${row.failed.floor} of ${row.attempted}`
              : '0',
          ]),
      ),
      '',
    );
  }
  p(
    `All latencies in ms. Target: ratio ≤ ${TARGETS.warmP50Ratio} for every endpoint. A row where more than 10% of the endpoint’s requests failed is shown but not judged (its p50 covers only the requests that got through).`,
    '',
  );
  const failedRows = results.warm.filter((row) => row.failed.endpoint + row.failed.floor + row.failed.http > 0);
  if (failedRows.length) {
    p(
      `Failed requests (endpoint / floor): ${failedRows.map((row) => `${row.name} @ c=${row.concurrency}: ${row.failed.endpoint} / ${row.failed.floor} (first: ${row.failures[0]})`).join('; ')}.`,
      '',
    );
  }
  if (results.warm.some((row) => row.emulatorLocks && row.concurrency > 1)) {
    p(
      'PUT /user/{id}/push-token runs a query inside a Firestore transaction (other holders of the token). On the emulator, 16 such transactions at once block each other until "ABORTED: Transaction lock timeout", although every request registers a different token for a different user: the service retries contention for up to 30 s (then answers 500), while the floor’s SDK gives up after 5 attempts, so neither the p50 of what got through nor the ratio compares like with like. The row at c=16 is therefore one short round of 16 requests and is not judged. This is the emulator’s locking; whether deployed Firestore serialises these transactions the same way is not measured here.',
      '',
    );
  }
  p(...cpuBreakdownParts(results));

  p('### Memory of the warm instance', '');
  p(
    'VmHWM (peak resident set so far) and RSS of the warm `api` instance of sections 2 and 3 as the run goes on, then of the throughput instances (section 4) after all their runs at 16 and 64 connections, with no memory limit set (a deployed instance with a limit gets a smaller V8 heap and collects garbage sooner).',
    '',
    table(
      ['After', 'Peak (VmHWM), MiB', 'RSS, MiB'],
      [
        ...results.memory.map((m) => [m.stage, fmtMb(m.hwmKb), fmtMb(m.rssKb)]),
        ...results.throughput
          .filter((row) => row.connections === Math.max(...plan.throughput.connections))
          .map((row) => [
            `throughput instance, ${row.users.toLocaleString('en-US')} users`,
            fmtMb(row.memory.hwmKb),
            fmtMb(row.memory.rssKb),
          ]),
      ],
    ),
    '',
  );

  p(...restParts(results));

  p('## 3. Trigger lag', '');
  p(
    `From the 200 of \`POST /kiosk/transaction\` (bench clock) to \`effects.completedAt\` (the emulator’s server timestamp, same machine clock) on the transaction: the Firestore trigger running in the functions emulator, with kiosk counters, in-app notification and a push to the outbox (every user has a device token). c=1: one transaction at a time, ${plan.lag.sequential} samples after 2 warm-ups. c=16: bursts of 16 concurrent transactions (16 users), ${plan.lag.bursts} burst${plan.lag.bursts === 1 ? '' : 's'} after a warm-up burst. The functions emulator runs each concurrent event in a worker process of its own, so c=16 measures the emulator’s worker pool on 2 cores more than the trigger code.`,
    '',
  );
  p(
    table(
      ['Concurrency', 'Samples', 'p50, ms', 'p95, ms'],
      [
        ['1', results.lag.c1.n, fmtMs(results.lag.c1.p50), fmtMs(results.lag.c1.p95)],
        ['16', results.lag.c16.n, fmtMs(results.lag.c16.p50), fmtMs(results.lag.c16.p95)],
      ],
    ),
    '',
  );
  p(...batchParts(results));

  p('## 4. Throughput of POST /kiosk/transaction', '');
  p(
    `autocannon from the bench process, random user among the seeded ones and random kiosk (of 50) with its key, a fresh Idempotency-Key per request; trigger off. Each data size is a project of its own in the same Firestore emulator (${[...new Set(results.throughput.map((row) => row.projectId))].join(', ')}) holding that many users and the same kiosks, served by a warm instance of its own (${plan.throughput.warmupSeconds} s of warm-up at 64 connections each). The sizes are then measured in turn, ${plan.throughput.repeats} rounds of ${plan.throughput.seconds} s per point, the order of sizes rotating and 16 / 64 connections alternating from round to round, so that whatever else the machine does in those minutes hits every size alike; req/s, p50 and p99 are the medians of the rounds, the error counts their sums. Within an instance the service commits one user’s awards one at a time (src/domain/keyedQueue.ts) rather than letting them race and retry; across instances the optimistic precondition still decides. The instance, the emulator and the load generator share the machine’s 2 cores, so req/s is this machine’s, not a deployed instance’s.`,
    '',
  );
  p(
    table(
      [
        'Users seeded',
        'Connections',
        'req/s (2xx)',
        'req/s of each run',
        'p50, ms',
        'p99, ms',
        'non-2xx',
        'errors',
        'timeouts',
      ],
      results.throughput.map((row) => [
        row.users.toLocaleString('en-US'),
        row.connections,
        row.perSecond.toFixed(0),
        row.runsPerSecond.map((rate) => rate.toFixed(0)).join(', '),
        row.p50,
        row.p99,
        row.non2xx,
        row.errors,
        row.timeouts,
      ]),
    ),
    '',
  );
  p(
    `Largest fall of req/s from a data size to a larger one: ${summary.spreads.map((s) => `c=${s.connections}: ${(s.fall * 100).toFixed(0)}%`).join('; ')}; max-min spread across sizes: ${summary.spreads.map((s) => `c=${s.connections}: ${(s.spread * 100).toFixed(0)}% (${s.min.toFixed(0)}–${s.max.toFixed(0)} req/s)`).join('; ')}. Target: zero errors, and flat as the data grows: a scan that grows with the data would make req/s fall from each size to the next, so the fall is judged (≤ ${TARGETS.throughputSpread * 100}%). The spread also counts the 10-user point’s contention: there ${results.plan.throughput.connections.map((c) => `${c / results.plan.throughput.users[0]} awards per user are in flight at ${c} connections`).join(' and ')}, and one user’s awards are committed one at a time, so fewer users can mean fewer req/s with less data, not more.`,
    '',
  );

  p(...nearbyParts(results));

  const { size } = results;
  p('## 5. Deploy size', '');
  p(
    table(
      ['What', 'Size', 'Files'],
      [
        [
          `Upload: functions/ minus firebase.json ignore (${size.upload.ignore.join(', ')})`,
          kib(size.upload.bytes),
          size.upload.files,
        ],
        ['Built code functions/lib (with source maps)', kib(size.lib.bytes), size.lib.files],
        ['Built code functions/lib without .map', kib(size.libWithoutMaps.bytes), size.libWithoutMaps.files],
        [
          `Production dependencies (npm ls --omit=dev: ${size.dependencies.packages} packages, unpacked, what Cloud Build installs)`,
          mib(size.dependencies.bytes),
          size.dependencies.files,
        ],
      ],
    ),
    '',
  );

  const { tokenCheck } = results;
  p('## 6. Admin token check: what `checkRevoked` adds', '');
  p(
    `firebase-admin as deployed (not the emulator, which always makes the lookup) against a local stand-in for Google's public keys and Auth API (functions/test/harness/google-stand-in.ts), one admin token verified ${tokenCheck.runs} times each way, alternating. \`/admin/*\` and \`/notify/*\` pay the revocation lookup on every call; user routes reading the caller's own data do not (README, Decisions).`,
    '',
  );
  p(
    table(
      ['Check', 'p50', 'p95'],
      [
        [
          'verifyIdToken (signature, expiry)',
          `${fmtMs(tokenCheck.signature.p50)} ms`,
          `${fmtMs(tokenCheck.signature.p95)} ms`,
        ],
        [
          'verifyIdToken with checkRevoked (+ accounts:lookup)',
          `${fmtMs(tokenCheck.revocation.p50)} ms`,
          `${fmtMs(tokenCheck.revocation.p95)} ms`,
        ],
      ],
    ),
    '',
  );
  p(
    `Added per admin call here: ${fmtMs(tokenCheck.addedP50Ms)} ms at p50, plus, deployed, one network round trip from the function's region to identitytoolkit.googleapis.com, which no local figure includes.`,
    '',
  );

  p('## Summary', '', '```', ...summary.lines, '```', '');
  writeFileSync(join(repoRoot, 'BENCHMARKS.md'), out.join('\n'));
  return summary;
}
