// @ts-check
// `npm run bench [-- --quick] [-- --console]`: builds the functions, times a warm `npm start`
// against a bare `firebase emulators:start`, then runs scripts/bench/run.mjs inside the
// emulator suite (project demo-kiosk-rewards-bench), then scripts/bench/console.mjs in the
// whole stack (Hosting too), writes BENCHMARKS.md and prints the targets.
// --quick: every section shrunk (a few minutes), for trying the bench, not for figures.
// --console: the console's section alone, put in place of the one BENCHMARKS.md has.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { measureStart } from './bench/start.mjs';
import { consoleSection, judge, report, spliceConsoleSection } from './bench/report.mjs';
import { buildConsole } from './lib/console.mjs';
import { EMULATORS, SERVICE_EMULATORS, buildFunctions, runInEmulators } from './lib/emulators.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    console: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
const { quick, console: consoleOnly } = values;
if (values.help) {
  console.log(
    'Usage: npm run bench -- [--quick] [--console]   (--quick: fewer repetitions; its BENCHMARKS.md is not for\n' +
      'comparison. --console: only the console section of BENCHMARKS.md)',
  );
  process.exit(0);
}
const BENCHMARKS = join(repoRoot, 'BENCHMARKS.md');
const PROJECT_ID = 'demo-kiosk-rewards-bench';

/**
 * Runs scripts/bench/<name>.mjs inside `firebase emulators:exec` with the emulators `only` names (or exits):
 * what it measured, from the file it writes.
 * @param {string} only
 * @param {string} name
 */
async function measureInEmulators(only, name) {
  const file = join(cacheDir, `bench-${name}.json`);
  rmSync(file, { force: true });
  const command = ['node', join(repoRoot, 'scripts', 'bench', `${name}.mjs`), file, ...(quick ? ['--quick'] : [])];
  const status = await runInEmulators({ projectId: PROJECT_ID, only, command });
  if (status !== 0) {
    console.error(`scripts/bench/${name}.mjs did not complete; see the output above.`);
    process.exit(status || 1);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The console's figures from the whole stack, Hosting included. */
async function measureConsole() {
  buildConsole();
  return measureInEmulators(EMULATORS, 'console');
}

const startedAt = performance.now();
buildFunctions();
if (consoleOnly) {
  const section = consoleSection(await measureConsole());
  writeFileSync(BENCHMARKS, spliceConsoleSection(readFileSync(BENCHMARKS, 'utf8'), section));
  console.log(`\n${section}\nSee ${BENCHMARKS}.`);
  process.exit(0);
}
console.log('Start: warm npm start against bare firebase emulators:start');
const start = await measureStart(quick ? 1 : 3);
const results = { ...(await measureInEmulators(SERVICE_EMULATORS, 'run')), start, console: await measureConsole() };
const command = `npm run bench${quick ? ' -- --quick' : ''}`;
writeFileSync(BENCHMARKS, report(results, { command, durationMin: (performance.now() - startedAt) / 60_000 }));
console.log('');
for (const target of judge(results))
  console.log(`${target.met ? 'met   ' : 'MISSED'}  ${target.name}: ${target.measured}`);
console.log(`See ${BENCHMARKS}.`);
