// @ts-check
// Cold start and warm latency, each against its floor (docs/performance.md, How the bench measures).
import { median, summarize } from '../../lib/stats.mjs';
import { cannon, floorFunction, functionEnv, withInstances } from '../host.mjs';
/** @typedef {import('../host.mjs').FirstAnswer} FirstAnswer */

/**
 * `runs` cold starts of the api per request and of the floor, alternating: spawn -> first 200.
 * @param {{ env: Record<string, string>, runs: number, requests: import('../data.mjs').Endpoint[] }} options
 */
export async function measureColdStart({ env, runs, requests }) {
  /** @type {(options: import('../host.mjs').StartOptions, request?: import('../host.mjs').GetRequest) => Promise<FirstAnswer>} */
  const once = (options, request) => withInstances([options], async (_, [first]) => first, request);
  const floor = /** @type {number[]} */ ([]);
  const api = requests.map(() => /** @type {FirstAnswer[]} */ ([]));
  for (let run = 0; run < runs; run++) {
    floor.push((await once(floorFunction())).firstResponseMs);
    for (const [i, { request }] of requests.entries()) api[i].push(await once({ env: functionEnv(env) }, request(0)));
    console.log(`  cold start ${run + 1}/${runs}: floor ${floor.at(-1)?.toFixed(0)} ms`);
  }
  return requests.map(({ name }, i) => {
    const apiMs = median(api[i].map((run) => run.firstResponseMs));
    const [emptyFunctionMs, firstRequestBackendMs] = [median(floor), median(api[i].map((run) => run.backendMs))];
    const floorMs = emptyFunctionMs + firstRequestBackendMs;
    return { endpoint: name, apiMs, emptyFunctionMs, firstRequestBackendMs, floorMs, ratio: apiMs / floorMs };
  });
}

/**
 * @param {{ api: string, floor: string, endpoints: import('../data.mjs').Endpoint[], concurrencies: number[], rounds: number, amount: (c: number) => number, bodyBytes: number }} options
 */
export async function measureWarm({ api, floor, endpoints, concurrencies, rounds, amount, bodyBytes }) {
  const rows = [];
  for (const connections of concurrencies) {
    for (const endpoint of endpoints) {
      const n = amount(connections);
      const floorPath = endpoint.name === 'GET /openapi.json' ? `/body?bytes=${bodyBytes}` : '/';
      await cannon(api, { connections, amount: connections * 2, build: endpoint.request });
      /** @type {import('../host.mjs').Load[][]} */
      const [floorRuns, apiRuns, dataRuns] = [[], [], []];
      if (endpoint.dataFloor) await cannon(floor, { connections, amount: connections * 2, build: endpoint.dataFloor });
      for (let round = 0; round < rounds; round++) {
        const floorRequest = { method: 'GET', path: floorPath };
        floorRuns.push(await cannon(floor, { connections, amount: n, build: () => floorRequest }));
        apiRuns.push(await cannon(api, { connections, amount: n, build: endpoint.request }));
        if (endpoint.dataFloor)
          dataRuns.push(await cannon(floor, { connections, amount: n, build: endpoint.dataFloor }));
      }
      const latency = summarize(apiRuns.flatMap((run) => run.latencies));
      const failures = apiRuns.flatMap((run) => run.failures);
      const httpFloorP50 = summarize(floorRuns.flatMap((run) => run.latencies)).p50;
      const backendP50 = summarize(apiRuns.flatMap((run) => run.backend)).p50;
      const ratio = latency.p50 / (httpFloorP50 + backendP50);
      // The data floor: the same Firestore and Auth calls made by a bare function (floor.js); '' where none is set.
      const dataFloorP50 = dataRuns.length ? summarize(dataRuns.flatMap((run) => run.latencies)).p50 : '';
      const dataRatio = dataFloorP50 === '' ? '' : latency.p50 / dataFloorP50;
      const failed = failures.length + [...floorRuns, ...dataRuns].flatMap((run) => run.failures).length;
      const judged = failures.length <= latency.n / 10;
      const againstData = dataRatio === '' ? '' : `, ${dataRatio.toFixed(2)} of the data floor`;
      console.log(
        `  c=${connections} ${endpoint.name}: p50 ${latency.p50.toFixed(1)} ms, ratio ${ratio.toFixed(2)}${againstData}`,
      );
      const floors = { httpFloorP50, backendP50, ratio, dataFloorP50, dataRatio };
      const row = { c: connections, endpoint: endpoint.name, ...latency, ...floors, judged };
      rows.push({ ...row, failed, firstFailure: failures[0] ?? '' });
    }
  }
  return rows;
}
