// @ts-check
// `npm run bench`: builds the functions, starts the emulator suite for a project of
// its own (demo-kiosk-rewards-bench) and runs scripts/bench/run.mjs inside it, which
// hosts the functions with functions-framework, measures, and writes BENCHMARKS.md.
// Ends with the targets, met or missed, and two lines: `cold-start ratio: <x.xx>` and
// `worst warm p50 ratio: <x.xx> (<endpoint>)`.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildFunctions, runInEmulators } from './lib/emulators.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';

const USAGE = `Usage: npm run bench -- [--diagnose] [--quick] [--config <firebase.json>]
  (no flags)       what the targets judge: cold start and warm latency against their
                   floors, throughput by data size; and trigger lag, deploy size
                   (with --diagnose about 10 minutes on 2 cores, less without; the
                   default emulator ports must be free)
  --diagnose       also the sections that explain the figures: module load and first
                   use of the route-specific modules, where a warm request's CPU goes
                   (CPU profile), FIRESTORE_PREFER_REST vs gRPC
  --quick          every section shrunk to seconds, for trying the bench itself
                   (its BENCHMARKS.md is not for comparison)
  --config <file>  another firebase.json (other emulator ports; hosts are discovered)
Environment: BENCH_FIREBASE_CONFIG=<file> is --config, BENCH_QUICK=1 is --quick.`;

const BENCH_PROJECT_ID = 'demo-kiosk-rewards-bench';

/** @type {{ config?: string, quick?: boolean, diagnose?: boolean, help?: boolean }} */
let flags;
try {
  flags = parseArgs({
    options: {
      config: { type: 'string' },
      quick: { type: 'boolean' },
      diagnose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
  process.exit(2);
}
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}
const config = flags.config ?? process.env.BENCH_FIREBASE_CONFIG;
const forwarded = [
  ...(flags.quick || process.env.BENCH_QUICK ? ['--quick'] : []),
  ...(flags.diagnose ? ['--diagnose'] : []),
];

buildFunctions();
const resultsFile = join(cacheDir, 'bench', 'results.json');
rmSync(resultsFile, { force: true });

const status = await runInEmulators({
  projectId: BENCH_PROJECT_ID,
  config: config ? resolve(config) : undefined,
  command: ['node', join(repoRoot, 'scripts', 'bench', 'run.mjs'), ...forwarded],
});

if (status !== 0 || !existsSync(resultsFile)) {
  console.error('The benchmark did not complete; see the output above.');
  process.exit(status || 1);
}
// Printed after the emulators have shut down, so these are the last lines.
const { summary } = JSON.parse(readFileSync(resultsFile, 'utf8'));
console.log('');
for (const target of summary.targets)
  console.log(`${target.met ? 'met   ' : 'MISSED'}  ${target.name}: ${target.measured}`);
console.log(`See ${join(repoRoot, 'BENCHMARKS.md')}.`);
for (const line of summary.lines) console.log(line);
