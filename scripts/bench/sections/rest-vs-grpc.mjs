// @ts-check
// Section 2c (diagnostic, --diagnose): FIRESTORE_PREFER_REST=true against the default
// gRPC transport, cold (section 1's measurement with REST on both instances) and
// warm (a REST instance beside the warm gRPC one, rounds alternating). REST needs an
// access token, which the stand-in metadata server hands out. Judged by no target.
import { summarize } from '../../lib/stats.mjs';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { API_SOURCE, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { fmtMs, httpSender, keepAliveAgent, loop } from '../measure.mjs';
import { warmApiEnv } from '../setup.mjs';
import { measureColdStart } from './cold-start.mjs';

const PREFER_REST = { FIRESTORE_PREFER_REST: 'true' };

/**
 * @param {import('../setup.mjs').Bench} bench
 * @param {import('../host.mjs').Instance} grpcApi the warm api instance (gRPC)
 */
export async function measureRestVsGrpc(bench, grpcApi) {
  console.log(`  cold start, GET /kiosk/{id} (median of ${bench.plan.coldRestRuns})`);
  const coldRest = await measureColdStart(bench, { runs: bench.plan.coldRestRuns, env: PREFER_REST, requests: 1 });
  console.log('  warm');
  const restApi = await startFunction({
    source: API_SOURCE,
    env: warmApiEnv(bench, PREFER_REST),
    name: 'api-warm-rest',
  });
  try {
    await waitForSuccess(restApi, '/');
    return { coldRest, restWarm: await measureWarm(bench, grpcApi, restApi) };
  } finally {
    await stopFunction(restApi);
  }
}

/**
 * @param {import('../setup.mjs').Bench} bench
 * @param {import('../host.mjs').Instance} grpcApi
 * @param {import('../host.mjs').Instance} restApi
 */
async function measureWarm(bench, grpcApi, restApi) {
  /** @type {Pick<import('../endpoints.mjs').EndpointSpec, 'name' | 'request'>[]} */
  const chosen = bench.specs.filter((spec) => bench.plan.restEndpoints.includes(spec.name));
  chosen.unshift({ name: 'GET /', request: () => ({ method: 'GET', path: '/' }) });
  const rows = [];
  for (const concurrency of /** @type {const} */ ([1, 16])) {
    const plan = bench.plan.restWarm[concurrency];
    const agents = [keepAliveAgent(concurrency), keepAliveAgent(concurrency)];
    const senders = { grpc: httpSender(grpcApi.url, agents[0]), rest: httpSender(restApi.url, agents[1]) };
    for (const spec of chosen) {
      await setBackgroundTriggers(false);
      /** @type {{ grpc: number[], rest: number[] }} */
      const samples = { grpc: [], rest: [] };
      /** @type {('grpc' | 'rest')[]} */
      const modes = ['grpc', 'rest'];
      for (const mode of modes) await loop(concurrency, plan.warmup, (w, g) => senders[mode](spec.request(w, g)));
      for (let round = 0; round < plan.rounds; round++) {
        for (const mode of round % 2 ? [...modes].reverse() : modes) {
          samples[mode].push(
            ...(await loop(concurrency, plan.requests, (w, g) => senders[mode](spec.request(w, g)))).latencies,
          );
        }
      }
      const grpc = summarize(samples.grpc);
      const rest = summarize(samples.rest);
      rows.push({ name: spec.name, concurrency, grpc, rest, ratio: rest.p50 / grpc.p50 });
      console.log(
        `  c=${String(concurrency).padStart(2)}  ${spec.name.padEnd(28)} gRPC p50 ${fmtMs(grpc.p50)} ms  REST p50 ${fmtMs(rest.p50)} ms`,
      );
    }
    agents.forEach((agent) => agent.destroy());
  }
  return rows;
}
