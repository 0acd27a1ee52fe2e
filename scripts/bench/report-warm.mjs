// @ts-check
// BENCHMARKS.md's section 2 (warm latency): each endpoint against its floors at
// concurrency 1 and 16, where the CPU goes (report-diagnostics.mjs, when profiled),
// and the memory of the warm instance.
import { fmtMb, fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';
import { cpuBreakdownParts } from './report-diagnostics.mjs';
import { TARGETS, judged, within } from './report-targets.mjs';

/** @typedef {import('./run.mjs').Results} Results */

/**
 * @param {Results} results
 * @param {(...lines: string[]) => void} p appends lines to BENCHMARKS.md
 */
export function warmLatencySection(results, p) {
  const { plan } = results;
  p('## 2. Warm latency', '');
  p(
    'One warm functions-framework instance of `api`; requests on keep-alive connections from closed-loop workers (concurrency 1 and 16). Per endpoint, in the same run and interleaved with it (request by request at c=1, in small batches at c=16): the HTTP floor `GET /` (the HTTP path with no work; for `GET /openapi.json`, whose answer is tens of KB where `GET /` sends 50 bytes, the floor function answering a prebuilt body of the same size, since sending it is HTTP work the endpoint cannot skip) and the Firestore floor, the same reads and writes the endpoint needs done directly with the Admin SDK (column "Firestore floor does"). The Firestore floor runs in a process of its own (scripts/bench/floor-runner.mjs), each operation in the context functions-framework gives a request (an AsyncLocalStorage store and a domain: both make every asynchronous step dearer, and the endpoint pays that too). For endpoints called with an ID token the floor also verifies that token with firebase-admin, as the endpoint must (against the emulator `verifyIdToken` always looks the account up, an HTTP call; deployed it only checks the signature). Ratio = endpoint p50 ÷ (HTTP floor p50 + Firestore floor p50). CPU/req is the CPU time the instance (or the floor process) used per request over the same batches: unlike wall time it barely moves with other load on the machine, so its ratio is the steadier view of the service’s own overhead. A third reference, not part of the target, is the same-host floor: the Firestore floor run inside a minimal `onRequest` function (scripts/bench/floor.js) on the same host, warm, sent the endpoint’s own request. At c=16 one process serves 16 requests at once and is CPU-bound, so each p50 is mostly queueing behind the others’ CPU; adding two floors measured apart (GET / batches especially cheaply) then understates what HTTP and Firestore work cost together in one process, and the same-host ratio shows how much of a c=16 ratio is the service’s own code. Pushes go to the outbox (PUSH_TRANSPORT=outbox); mail to an SMTP server in the bench process (that floor includes the SMTP send with the same nodemailer settings). Requests use distinct ids (users, idempotency keys, addresses, client IPs) so concurrent requests do not contend on one document, for endpoint and floor alike.',
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
}
