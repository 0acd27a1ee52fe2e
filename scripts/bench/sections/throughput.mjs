// @ts-check
// Section 4 (judged): throughput of POST /kiosk/transaction as the data grows. Each
// data size is a project of its own in the same Firestore emulator, served by a warm
// instance of its own, so the sizes can be measured in turn, round after round:
// whatever else the machine does over the minutes of the section then hits every
// size alike instead of reading as a trend with the data.
import autocannon from 'autocannon';
import { median } from '../../lib/stats.mjs';
import { seedDataSize } from '../seed.mjs';
import { API_SOURCE, memoryOf, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { warmApiEnv } from '../setup.mjs';

/** @param {import('../setup.mjs').Bench} bench */
export async function measureThroughput(bench) {
  const { users: sizes, connections: connectionCounts, seconds, repeats, warmupSeconds } = bench.plan.throughput;
  const { runId } = bench.ctx;
  let n = 0; // one Idempotency-Key per request across every run
  /**
   * @param {Target} target
   * @param {number} connections
   * @param {number} duration
   */
  const run = (target, connections, duration) =>
    autocannon({
      url: target.instance.url,
      connections,
      duration,
      timeout: 30,
      requests: [
        {
          setupRequest(/** @type {Record<string, unknown>} */ req) {
            const kiosk = target.kiosks[Math.floor(Math.random() * target.kiosks.length)];
            const userId = `tp-user-${Math.floor(Math.random() * target.users)}`;
            const body = { kioskId: kiosk.id, userId, plasticCount: 1 + (n % 5), metalCount: n % 3 };
            const headers = {
              'content-type': 'application/json',
              'x-api-key': kiosk.apiKey,
              'idempotency-key': `${runId}-tp-${n++}`,
            };
            return { ...req, method: 'POST', path: '/kiosk/transaction', headers, body: JSON.stringify(body) };
          },
        },
      ],
    });
  /** @type {Target[]} */
  const targets = [];
  try {
    for (const users of sizes) {
      const projectId = `${process.env.GCLOUD_PROJECT}-u${users}`;
      const seeded = await seedDataSize(projectId, users, runId);
      const instance = await startFunction({
        source: API_SOURCE,
        env: warmApiEnv(bench, { GCLOUD_PROJECT: projectId }),
        name: `api-u${users}`,
      });
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
          target.runs.get(connections)?.push(result);
          console.log(
            `  users ${String(target.users).padStart(6)}  c=${String(connections).padStart(2)}  round ${repeat + 1}: ${(result['2xx'] / seconds).toFixed(0)} req/s  p50 ${result.latency.p50} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
          );
        }
      }
    }
    const rows = targets.flatMap((target) =>
      [...target.runs].map(([connections, results]) => throughputRow(target, connections, seconds, results)),
    );
    for (const row of rows) {
      console.log(
        `  users ${String(row.users).padStart(6)}  c=${String(row.connections).padStart(2)}  median ${row.perSecond.toFixed(0)} req/s (runs ${row.runsPerSecond.map((rate) => rate.toFixed(0)).join(', ')})  p50 ${row.p50} ms  p99 ${row.p99} ms  statuses ${JSON.stringify(row.statusCodes)}`,
      );
    }
    return rows;
  } finally {
    for (const target of targets) await stopFunction(target.instance);
  }
}

/**
 * A data size: its project, seeded users and kiosks, its instance, and autocannon's
 * results per connection count.
 * @typedef {Awaited<ReturnType<typeof seedDataSize>> & { instance: import('../host.mjs').Instance, runs: Map<number, any[]> }} Target
 */

/**
 * One point (data size, connections) over its rounds: medians of the rates and
 * latencies, sums of the errors, and the instance's memory after them.
 * @param {Target} target
 * @param {number} connections
 * @param {number} seconds
 * @param {any[]} results autocannon's, one per round
 */
function throughputRow(target, connections, seconds, results) {
  const total = (/** @type {string} */ key) => results.reduce((sum, result) => sum + result[key], 0);
  const rates = results.map((result) => result['2xx'] / seconds);
  /** @type {Record<string, number>} */
  const statusCodes = {};
  for (const result of results) {
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  return {
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
  };
}
