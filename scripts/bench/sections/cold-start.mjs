// @ts-check
// Section 1 (judged): cold start of the api against the floor function, from spawn
// to the first 200, for GET /kiosk/{id} (the headline figure) and GET /user/{id}.
import { median } from '../../lib/stats.mjs';
import { API_SOURCE, coldStart, functionEnv } from '../host.mjs';
import { fmtMb, fmtMs, sleep } from '../measure.mjs';

/** The seeded kiosk the cold GET /kiosk/{id} reads (its schedule is a plain weekly one). */
export const COLD_KIOSK = 1;

/**
 * The timed requests: GET /kiosk/{id} (public; its answer's openNow needs the
 * kiosk's opening hours) and GET /user/{id} (ID token + one read; no route-specific
 * module). Each against a floor doing the same work (floor.js).
 * @param {import('../endpoints.mjs').BenchContext} ctx
 * @returns {{ name: string, path: string, headers?: Record<string, string> }[]}
 */
const coldRequests = (ctx) => [
  { name: 'GET /kiosk/{id}', path: `/kiosk/bench-kiosk-${COLD_KIOSK}` },
  { name: 'GET /user/{id}', path: `/user/${ctx.authUsers[0]}`, headers: { authorization: `Bearer ${ctx.tokens[0]}` } },
];

/**
 * Cold starts of the api and the floor function, alternating, median of the runs.
 * Without options, the section as judged; the REST comparison runs it with its own
 * `runs`, `env` (on both instances) and only the first `requests`.
 * @param {import('../setup.mjs').Bench} bench
 * @param {{ runs?: number, env?: Record<string, string>, requests?: number }} [options]
 */
export async function measureColdStart(bench, { runs = bench.plan.coldRuns, env = {}, requests: count } = {}) {
  const requests = coldRequests(bench.ctx).slice(0, count);
  const variants = [
    { key: 'api', source: API_SOURCE, env: functionEnv({ PUSH_TRANSPORT: 'outbox', ...env }) },
    { key: 'floor', source: bench.standIns.floorDir, env: functionEnv(env) },
  ];
  /** @type {Map<string, Record<string, Sample[]>>} */
  const samples = new Map(requests.map((r) => [r.name, { api: [], floor: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const req of requests) {
      for (const variant of i % 2 ? [...variants].reverse() : variants) {
        const sample = await coldStart({
          source: variant.source,
          env: variant.env,
          path: req.path,
          headers: req.headers,
          name: `cold-${variant.key}`,
        });
        samples.get(req.name)?.[variant.key].push(sample);
        await sleep(300);
      }
    }
  }
  const rows = requests.map((req) => {
    const { api, floor } = samples.get(req.name) ?? {};
    const apiSummary = summarizeCold(api);
    const floorSummary = summarizeCold(floor);
    return {
      request: req.name,
      path: req.path,
      api: apiSummary,
      floor: floorSummary,
      ratio: apiSummary.firstResponseMs / floorSummary.firstResponseMs,
    };
  });
  for (const row of rows) logCold(row);
  return rows;
}

/** @typedef {Awaited<ReturnType<typeof coldStart>>} Sample */

/** @param {Sample[]} [list] */
const summarizeCold = (list = []) => ({
  runs: list.length,
  listenMs: median(list.map((s) => s.listenMs)),
  firstResponseMs: median(list.map((s) => s.firstResponseMs)),
  cpuMs: median(list.map((s) => s.cpuMs)),
  hwmKb: median(list.map((s) => s.hwmKb)),
  samplesMs: list.map((s) => Math.round(s.firstResponseMs)),
});

/** @param {{ request: string, api: ReturnType<typeof summarizeCold>, floor: ReturnType<typeof summarizeCold>, ratio: number }} row */
const logCold = (row) =>
  console.log(
    `  ${row.request.padEnd(16)} api ${fmtMs(row.api.firstResponseMs)} ms (listening ${fmtMs(row.api.listenMs)}, CPU ${fmtMs(row.api.cpuMs)}, peak ${fmtMb(row.api.hwmKb)} MiB)` +
      `  floor ${fmtMs(row.floor.firstResponseMs)} ms (listening ${fmtMs(row.floor.listenMs)}, CPU ${fmtMs(row.floor.cpuMs)}, peak ${fmtMb(row.floor.hwmKb)} MiB)  ratio ${row.ratio.toFixed(2)}`,
  );
