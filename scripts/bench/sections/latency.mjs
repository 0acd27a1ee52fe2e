// @ts-check
// Cold start and warm latency, each against its floor: the empty function (floor.js)
// on the same host, plus, for the api, the time its own backend calls took in that
// very request (Server-Timing, src/adapters/callTiming.ts).
import { median, summarize } from '../../lib/stats.mjs';
import { cannon, firstAnswer, functionEnv, startFunction, stopFunction } from '../host.mjs';

/**
 * `runs` cold starts of the api per path and of the floor, alternating: spawn -> first 200.
 * @param {{ floorDir: string, env: Record<string, string>, runs: number, paths: { name: string, request: import('../host.mjs').BenchRequest }[] }} options
 */
export async function measureColdStart({ floorDir, env, runs, paths }) {
  /** @type {(source: string | undefined, path: string, headers?: Record<string, string>) => Promise<{ firstResponseMs: number, backendMs: number }>} */
  const once = async (source, path, headers) => {
    const instance = await startFunction({ source, env: functionEnv(env) });
    try {
      return await firstAnswer(instance, path, headers);
    } finally {
      await stopFunction(instance);
    }
  };
  /** @type {number[]} */
  const floor = [];
  /** @type {Record<string, { firstResponseMs: number, backendMs: number }[]>} */
  const api = Object.fromEntries(paths.map(({ name }) => [name, []]));
  for (let run = 0; run < runs; run++) {
    floor.push((await once(floorDir, '/')).firstResponseMs);
    for (const { name, request } of paths) api[name].push(await once(undefined, request.path, request.headers));
    console.log(
      `  cold start ${run + 1}/${runs}: floor ${floor.at(-1)?.toFixed(0)} ms, ${paths.map(({ name }) => `${name} ${api[name].at(-1)?.firstResponseMs.toFixed(0)} ms`).join(', ')}`,
    );
  }
  return paths.map(({ name }) => {
    const apiMs = median(api[name].map((run) => run.firstResponseMs));
    const backendMs = median(api[name].map((run) => run.backendMs));
    const floorMs = median(floor) + backendMs;
    return { name, apiMs, emptyMs: median(floor), backendMs, floorMs, ratio: apiMs / floorMs, runs: api[name].length };
  });
}

/**
 * Per endpoint and concurrency: rounds of `amount` requests to the empty function's
 * HTTP floor, then to the endpoint, on warm instances. Ratio = endpoint p50 ÷ (HTTP
 * floor p50 + the p50 of the endpoint's own backend time).
 * @param {{ api: string, floor: string, endpoints: import('../data.mjs').Endpoint[], concurrencies: number[], rounds: number, amount: (c: number) => number, bodyBytes: number }} options
 */
export async function measureWarm({ api, floor, endpoints, concurrencies, rounds, amount, bodyBytes }) {
  const rows = [];
  for (const connections of concurrencies) {
    for (const endpoint of endpoints) {
      // The emulator's locks: one short round, shown and not judged.
      const [roundsHere, n] =
        endpoint.emulatorLocks && connections > 1 ? [1, connections] : [rounds, amount(connections)];
      const floorPath = endpoint.name === 'GET /openapi.json' ? `/body?bytes=${bodyBytes}` : '/';
      await cannon(api, { connections, amount: connections * 2, build: endpoint.request });
      /** @type {import('../host.mjs').Load[]} */
      const floorRuns = [];
      /** @type {import('../host.mjs').Load[]} */
      const apiRuns = [];
      for (let round = 0; round < roundsHere; round++) {
        floorRuns.push(
          await cannon(floor, { connections, amount: n, build: () => ({ method: 'GET', path: floorPath }) }),
        );
        apiRuns.push(await cannon(api, { connections, amount: n, build: endpoint.request }));
      }
      const latency = summarize(apiRuns.flatMap((run) => run.latencies));
      const failures = apiRuns.flatMap((run) => run.failures);
      const httpFloor = summarize(floorRuns.flatMap((run) => run.latencies)).p50;
      const backend = summarize(apiRuns.flatMap((run) => run.backend)).p50;
      const row = {
        name: endpoint.name,
        connections,
        ...latency,
        httpFloor,
        backend,
        ratio: latency.p50 / (httpFloor + backend),
        failed: failures.length + floorRuns.reduce((sum, run) => sum + run.failures.length, 0),
        firstFailure: failures[0],
        judged: failures.length <= latency.n / 10 && !(endpoint.emulatorLocks && connections > 1),
      };
      console.log(
        `  c=${connections} ${row.name}: p50 ${row.p50.toFixed(1)} ms, floor ${httpFloor.toFixed(1)} + ${backend.toFixed(1)} ms, ratio ${row.ratio.toFixed(2)}, failed ${row.failed}`,
      );
      rows.push(row);
    }
  }
  return rows;
}
