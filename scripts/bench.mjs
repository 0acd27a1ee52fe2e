// `npm run bench`: builds the functions, starts the emulator suite for a project of
// its own (demo-kiosk-rewards-bench) and runs scripts/bench/run.mjs inside it, which
// hosts the functions with functions-framework, measures, and writes BENCHMARKS.md.
// Ends with two lines: `cold-start ratio: <x.xx>` and `worst warm p50 ratio: <x.xx> (<endpoint>)`.
//
//   npm run bench                                        the repository's firebase.json
//   BENCH_FIREBASE_CONFIG=/path/firebase.json npm run bench   other emulator ports (hosts are discovered)
//   BENCH_QUICK=1 npm run bench                          fewer repetitions, for trying the bench itself
// or directly: node scripts/bench.mjs [--config /path/firebase.json] [--quick]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMULATORS, buildFunctions, emulatorEnv, ensureLocalSecrets } from './lib/emulators.mjs';
import { cacheDir, repoRoot } from './lib/paths.mjs';

const BENCH_PROJECT_ID = 'demo-kiosk-rewards-bench';

const args = process.argv.slice(2);
const firebaseArgs = process.env.BENCH_FIREBASE_CONFIG ? ['--config', resolve(process.env.BENCH_FIREBASE_CONFIG)] : [];
const forwarded = process.env.BENCH_QUICK ? ['--quick'] : [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--config') firebaseArgs.push('--config', resolve(args[++i]));
  else if (arg.startsWith('--config=')) firebaseArgs.push('--config', resolve(arg.slice('--config='.length)));
  else forwarded.push(arg);
}

buildFunctions();
ensureLocalSecrets();
const resultsFile = join(cacheDir, 'bench', 'results.json');
rmSync(resultsFile, { force: true });

const inner = ['node', JSON.stringify(join(repoRoot, 'scripts', 'bench', 'run.mjs')), ...forwarded.map((a) => JSON.stringify(a))].join(' ');
const run = spawnSync(
  'npx',
  ['firebase', ...firebaseArgs, 'emulators:exec', '--only', EMULATORS, '--project', BENCH_PROJECT_ID, inner],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...emulatorEnv() } },
);

if (run.status !== 0 || !existsSync(resultsFile)) {
  console.error('The benchmark did not complete; see the output above.');
  process.exit(run.status || 1);
}
// Printed after the emulators have shut down, so these are the last lines.
const { summary } = JSON.parse(readFileSync(resultsFile, 'utf8'));
console.log('');
for (const target of summary.targets) console.log(`${target.met ? 'met   ' : 'MISSED'}  ${target.name}: ${target.measured}`);
console.log(`See ${join(repoRoot, 'BENCHMARKS.md')}.`);
for (const line of summary.lines) console.log(line);
