// @ts-check
// `npm run bench [-- --quick]`: builds the functions, times a warm `npm start` against a
// bare `firebase emulators:start`, then runs scripts/bench/run.mjs inside the emulator
// suite (project demo-kiosk-rewards-bench), writes BENCHMARKS.md and prints the targets.
// --quick: every section shrunk (a few minutes), for trying the bench, not for figures.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { measureStart } from './bench/start.mjs';
import { judge, report } from './bench/report.mjs';
import { buildFunctions, runInEmulators } from './lib/emulators.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';

const { quick, help } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
}).values;
if (help) {
  console.log(
    'Usage: npm run bench -- [--quick]   (--quick: fewer repetitions; its BENCHMARKS.md is not for comparison)',
  );
  process.exit(0);
}
const startedAt = performance.now();
buildFunctions();
console.log('Start: warm npm start against bare firebase emulators:start');
const start = await measureStart(quick ? 1 : 3);
const resultsFile = join(cacheDir, 'bench-results.json');
rmSync(resultsFile, { force: true });
const status = await runInEmulators({
  projectId: 'demo-kiosk-rewards-bench',
  command: ['node', join(repoRoot, 'scripts', 'bench', 'run.mjs'), resultsFile, ...(quick ? ['--quick'] : [])],
});
if (status !== 0) {
  console.error('The benchmark did not complete; see the output above.');
  process.exit(status || 1);
}
const results = { ...JSON.parse(readFileSync(resultsFile, 'utf8')), start };
const command = `npm run bench${quick ? ' -- --quick' : ''}`;
writeFileSync(
  join(repoRoot, 'BENCHMARKS.md'),
  report(results, { command, durationMin: (performance.now() - startedAt) / 60_000 }),
);
console.log('');
for (const target of judge(results))
  console.log(`${target.met ? 'met   ' : 'MISSED'}  ${target.name}: ${target.measured}`);
console.log(`See ${join(repoRoot, 'BENCHMARKS.md')}.`);
