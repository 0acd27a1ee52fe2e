// @ts-check
// The parts of BENCHMARKS.md that only `npm run bench -- --diagnose` measures: module
// load and first use, the CPU profile of a warm request, FIRESTORE_PREFER_REST vs
// gRPC. Each returns its lines, or none when its section did not run.
import { fmtMb, fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';
import { CPU_CATEGORIES } from './profile.mjs';

/**
 * @typedef {import('./run.mjs').Results} Results
 * @typedef {NonNullable<Results['cpuBreakdown']>[number]} CpuRow
 */

export const DIAGNOSE_COMMAND = '`npm run bench -- --diagnose`';

/** CPU ms per request of a CPU-breakdown row, summed over the categories of its profile. */
const profileTotal = (/** @type {CpuRow} */ row) => Object.values(row.perRequest).reduce((sum, ms) => sum + ms, 0);

/**
 * The smallest and largest share of the service's own code in the api's profiled
 * requests, or undefined without a CPU profile.
 * @param {Results} results
 * @returns {[number, number] | undefined}
 */
export function serviceCodeShares(results) {
  if (!results.cpuBreakdown) return undefined;
  const shares = results.cpuBreakdown
    .filter((row) => row.variant === 'api')
    .map((row) => row.perRequest[CPU_CATEGORIES[0]] / profileTotal(row));
  return [Math.min(...shares), Math.max(...shares)];
}

/**
 * Section 0, reported under the cold start it explains.
 * @param {Results} results
 */
export function moduleLoadParts(results) {
  if (!results.moduleLoad || !results.firstUse) return [];
  return [
    '### Module load of each function',
    '',
    'A `require` of the entry point in a fresh Node process, timed inside it (Node’s own start excluded), median of the runs. Deployed, every function is a service of its own whose instances load `lib/index.js` with `FUNCTION_TARGET` set to the function’s name, and index.ts then defines (and loads) only that function. "Heavy" lists route-specific modules found in `require.cache` afterwards: firebase-admin/auth is loaded by firebase-functions’ own HTTPS and Auth providers, in the floor too; the service loads nodemailer, opening_hours, ajv and firebase-admin/messaging only when a route needs them. The two transport rows are what the Firestore client loads at its first call (gRPC, or the REST fallback with FIRESTORE_PREFER_REST).',
    '',
    table(
      ['Module', 'ms', 'Modules loaded', 'RSS, MiB', 'Heavy modules loaded'],
      results.moduleLoad.map((m) => [m.name, fmtMs(m.ms), m.modules, fmtMb(m.rssKb), m.heavy.join(', ') || 'none']),
    ),
    '',
    '### First use of the route-specific modules',
    '',
    'Loaded lazily, each is paid by the first request of a route that needs it, never at import. Timed in a fresh process that has loaded the entry point, median of the runs. The first row is what a cold `GET /kiosk/{id}` pays on top of its floor (the floor does not evaluate opening hours). Plain weekly schedules (days, `HH:MM-HH:MM` ranges within the day, `off`, `24/7`: every demo and bench kiosk) are read by src/domain/weeklySchedule.ts, checked against opening_hours by a property test; only a schedule outside that form loads opening_hours, and the instance that meets it pays the two opening_hours rows once.',
    '',
    table(
      ['What', 'Paid by', 'ms'],
      results.firstUse.map((row) => [row.name, row.paidBy, fmtMs(row.ms)]),
    ),
    '',
  ];
}

/**
 * Section 2b, reported under the warm latency it explains.
 * @param {Results} results
 */
export function cpuBreakdownParts(results) {
  const breakdown = results.cpuBreakdown;
  if (!breakdown) return [];
  const { plan } = results;
  const profiled = [...new Set(breakdown.map((row) => row.name))];
  /** @type {(name: string, variant: string) => CpuRow} */
  const cell = (name, variant) => {
    const row = breakdown.find((candidate) => candidate.name === name && candidate.variant === variant);
    if (!row) throw new Error(`no CPU profile of ${name} (${variant})`);
    return row;
  };
  const cpuColumns = profiled.flatMap((name) => [`${name}: api`, 'floor']);
  const cpuRows = [
    ...CPU_CATEGORIES.map((category) => [
      category,
      ...profiled.flatMap((name) =>
        ['api', 'floor'].map((variant) => cell(name, variant).perRequest[category].toFixed(2)),
      ),
    ]),
    [
      '**total (profile)**',
      ...profiled.flatMap((name) =>
        ['api', 'floor'].map((variant) => `**${profileTotal(cell(name, variant)).toFixed(2)}**`),
      ),
    ],
    [
      'process CPU (/proc, same requests)',
      ...profiled.flatMap((name) =>
        ['api', 'floor'].map((variant) => cell(name, variant).processCpuPerRequest.toFixed(2)),
      ),
    ],
  ];
  return [
    '### Where a warm request’s CPU goes (c=16)',
    '',
    `The api and the same-host floor, each in an instance of its own with V8’s sampling profiler preloaded (scripts/bench/cpu-profiler.cjs), under the same load: ${plan.cpuBreakdown.requests} requests at c=${plan.cpuBreakdown.concurrency} per endpoint after ${plan.cpuBreakdown.warmup} of warm-up, the profile covering only the measured requests. Each sample is charged to the innermost JavaScript frame with a source file (a builtin such as JSON.stringify or Intl counts for the code that called it), grouped by who wrote that code (scripts/bench/profile.mjs); idle time is left out. CPU ms per request:`,
    '',
    table(['Category', ...cpuColumns], cpuRows),
    '',
    profiled
      .map((name) => {
        const api = cell(name, 'api');
        const floor = cell(name, 'floor');
        const own = api.perRequest[CPU_CATEGORIES[0]];
        return `${name}: the service’s own code is ${own.toFixed(2)} ms of the api’s ${profileTotal(api).toFixed(2)} ms per request (${((100 * own) / profileTotal(api)).toFixed(0)}%); api ÷ floor CPU ${fmtRatio(profileTotal(api) / profileTotal(floor))}×`;
      })
      .join('. ') + '.',
    '',
  ];
}

/**
 * One instance's cold start over gRPC and over REST.
 * @param {string} instance
 * @param {Results['cold'][number]['api']} grpc
 * @param {Results['cold'][number]['api']} rest
 */
const transportRow = (instance, grpc, rest) => [
  instance,
  fmtMs(grpc.firstResponseMs),
  fmtMs(rest.firstResponseMs),
  fmtRatio(rest.firstResponseMs / grpc.firstResponseMs),
  `${fmtMs(grpc.cpuMs)} / ${fmtMs(rest.cpuMs)}`,
  `${fmtMb(grpc.hwmKb)} / ${fmtMb(rest.hwmKb)}`,
];

/**
 * Section 2c, a section of the report of its own.
 * @param {Results} results
 */
export function restParts(results) {
  const { cold, coldRest, restWarm } = results;
  if (!coldRest || !restWarm) return [];
  const grpcCold = cold.find((row) => row.request === coldRest[0].request);
  if (!grpcCold) throw new Error(`no gRPC cold start of ${coldRest[0].request}`);
  return [
    '## FIRESTORE_PREFER_REST=true vs gRPC (default)',
    '',
    'Against the emulator the REST transport needs an access token, which a deployed function gets from the metadata server; the bench runs a stand-in metadata server (GCE_METADATA_HOST) that hands out the emulator’s admin token. Against the emulator the Firestore SDK still loads google-gax’s gRPC module even in REST mode (for its insecure-channel credentials); deployed, REST mode skips it, so the two transport rows of the module-load table (gRPC vs REST fallback) give the extra saving a deployed instance would see. The warm figures are REST against the emulator’s REST endpoint; deployed, each REST call also pays HTTP/1.1 to firestore.googleapis.com, which this bench cannot measure.',
    '',
    table(
      [
        'Cold start, ' + coldRest[0].request + ' (median)',
        'gRPC, ms',
        'REST, ms',
        'REST ÷ gRPC',
        'CPU gRPC / REST, ms',
        'Peak memory gRPC / REST, MiB',
      ],
      [
        transportRow('api', grpcCold.api, coldRest[0].api),
        transportRow('floor', grpcCold.floor, coldRest[0].floor),
        ['api ÷ floor', fmtRatio(grpcCold.ratio), fmtRatio(coldRest[0].ratio), '', '', ''],
      ],
    ),
    '',
    'Warm, two instances side by side (same code, one with FIRESTORE_PREFER_REST=true), rounds alternating:',
    '',
    table(
      ['Endpoint', 'c', 'gRPC p50', 'REST p50', 'gRPC p95', 'REST p95', 'REST ÷ gRPC (p50)'],
      restWarm.map((row) => [
        row.name,
        row.concurrency,
        fmtMs(row.grpc.p50),
        fmtMs(row.rest.p50),
        fmtMs(row.grpc.p95),
        fmtMs(row.rest.p95),
        fmtRatio(row.ratio),
      ]),
    ),
    '',
  ];
}
