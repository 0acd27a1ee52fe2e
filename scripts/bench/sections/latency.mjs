// Cold start and warm latency, each against its floor (docs/performance.md, How the bench measures); part four's trust
// and claims rows, each against a plain award.
import { median, summarize, sum } from '../../lib/stats.mjs';
import { db } from '../../lib/fleet.mjs';
import { cannon, floorFunction, functionEnv, versus, withInstances } from '../host.mjs';
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
      const [floorRuns, apiRuns, dataRuns] = /** @type {import('../host.mjs').Load[][]} */ ([[], [], []]);
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

const TRUST_OFF = { kioskItemsPerMinute: null, userItemsPerDay: null, travelKmh: null };
const TRUST_ON = { kioskItemsPerMinute: 1_000_000, userItemsPerDay: 1_000_000, travelKmh: 1_000_000 };

/**
 * Trust (§17): an award with every check on (limits so high nothing is held, yet each judged) against every check off,
 * rounds alternating on one warm instance: config/risk is read with every award, so a write switches them.
 * @param {{ url: string, endpoint: import('../data.mjs').Endpoint } & import('../host.mjs').VersusPlan} plan
 */
export async function measureTrust({ url, endpoint, ...plan }) {
  const risk = db().doc('config/risk');
  const checks = (/** @type {typeof TRUST_ON | typeof TRUST_OFF} */ limits) => ({
    build: endpoint.request,
    switchTo: () => risk.set(limits),
  });
  const rows = await versus(url, plan, { offP50: checks(TRUST_OFF), onP50: checks(TRUST_ON) });
  await risk.set(TRUST_OFF);
  return rows;
}

/**
 * Claim codes (§18, docs/claims.md): each claim is sent by its user with their own ID token (no Auth backend call, as
 * the app sends it); the deposits timed are for the same users, so both spread alike.
 * @param {{ url: string, data: import('../data.mjs').Data } & import('../host.mjs').VersusPlan} plan
 */
export async function measureClaims({ url, data, ...plan }) {
  const { kiosks, authUsers: users, tokens, runId } = data;
  const deposit = (/** @type {number} */ n, /** @type {string | null} */ userId) => {
    const { id, apiKey } = kiosks[n % kiosks.length];
    const headers = { 'x-api-key': apiKey, 'idempotency-key': `${runId}-claims-${n}` };
    const body = { kioskId: id, userId, plasticCount: 1 + (n % 5), metalCount: n % 3 };
    return { method: 'POST', path: '/kiosk/transaction', headers, body };
  };
  // A code for every claim of every concurrency: its warm-up of 2c and its rounds.
  const total = sum(plan.concurrencies.map((c) => plan.rounds * plan.amount(c) + 2 * c));
  const codes = /** @type {string[]} */ ([]);
  const made = await cannon(url, {
    connections: 8,
    amount: total,
    build: (n) => deposit(n, null),
    onAnswer: (status, body) => status === 200 && codes.push(JSON.parse(body).transaction.claim.code),
  });
  if (codes.length < total) throw new Error(`anonymous deposits: ${made.failures[0]}`);
  let claims = 0;
  const claim = () => {
    const i = claims++;
    const headers = { authorization: `Bearer ${tokens[i % users.length]}` };
    return { method: 'POST', path: `/user/${users[i % users.length]}/claims`, headers, body: { code: codes[i] } };
  };
  const plain = (/** @type {number} */ n) => deposit(n, users[n % users.length]);
  return versus(url, plan, { depositP50: { build: plain }, claimP50: { build: claim } });
}
