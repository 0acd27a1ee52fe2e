// `npm run bench [-- --quick] [--console] [--report-only] [--only=<section>]`: its flags in docs/performance.md (its
// opening and "How the bench measures"), --console in docs/console.md.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureStart } from './bench/start.mjs';
import { consoleSection, judge, report, spliceConsoleSection } from './bench/report.mjs';
import { EMULATORS, SERVICE_EMULATORS, buildConsole, buildFunctions, runInEmulators } from './lib/emulators.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    console: { type: 'boolean', default: false },
    'report-only': { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const { quick, console: consoleOnly } = values;
if (values.help) {
  console.log(
    'Usage: npm run bench -- [--quick] [--console] [--report-only] [--only=cold|warm|promotions|trust|claims]   (see scripts/bench.mjs)',
  );
  process.exit(0);
}
const BENCHMARKS = join(repoRoot, 'BENCHMARKS.md');
const RESULTS = join(cacheDir, 'bench.json');

/** What scripts/bench/<name>.mjs measured inside `firebase emulators:exec` of the emulators `only` (or exits). */
async function measureInEmulators(/** @type {string} */ only, /** @type {string} */ name) {
  const file = join(cacheDir, `bench-${name}.json`);
  rmSync(file, { force: true });
  const flags = [...(quick ? ['--quick'] : []), ...(values.only ? [`--only=${values.only}`] : [])];
  const command = ['node', join(repoRoot, 'scripts', 'bench', `${name}.mjs`), file, ...flags];
  const status = await runInEmulators({ projectId: 'demo-kiosk-rewards-bench', only, command });
  if (status !== 0) {
    console.error(`scripts/bench/${name}.mjs did not complete; see the output above.`);
    process.exit(status || 1);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

const startedAt = performance.now();
// What the emulators serve: the built functions and console (both launches of the start row serve the console too; a
// warm `npm start` finds it built).
if (!values['report-only']) {
  buildFunctions();
  if (!values.only) buildConsole();
}
if (values.only) {
  const { machine, ...rows } = await measureInEmulators(SERVICE_EMULATORS, 'run');
  for (const section of Object.values(rows)) console.table(section);
  console.log(`load average ${machine.loadBefore.toFixed(1)} before, ${machine.loadAfter.toFixed(1)} after`);
  process.exit(0);
}
if (consoleOnly) {
  const section = consoleSection(await measureInEmulators(EMULATORS, 'console'));
  writeFileSync(BENCHMARKS, spliceConsoleSection(readFileSync(BENCHMARKS, 'utf8'), section));
  console.log(`\n${section}\nSee ${BENCHMARKS}.`);
  process.exit(0);
}
/** @type {import('./bench/report.mjs').Results} */
let results;
if (values['report-only']) results = JSON.parse(readFileSync(RESULTS, 'utf8'));
else {
  console.log('Start: warm npm start against bare firebase emulators:start');
  const start = await measureStart(quick ? 1 : 3);
  results = {
    ...(await measureInEmulators(SERVICE_EMULATORS, 'run')),
    start,
    console: await measureInEmulators(EMULATORS, 'console'),
    command: `npm run bench${quick ? ' -- --quick' : ''}`,
    durationMin: (performance.now() - startedAt) / 60_000,
    writtenAt: new Date().toISOString().slice(0, 16).replace('T', ' '),
  };
  writeFileSync(RESULTS, JSON.stringify(results, null, 2));
}
writeFileSync(BENCHMARKS, report(results));
console.log('');
for (const target of judge(results))
  console.log(`${target.met ? 'met   ' : 'MISSED'}  ${target.name}: ${target.measured}`);
console.log(`See ${BENCHMARKS}.`);
