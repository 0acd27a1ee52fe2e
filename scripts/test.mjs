// `npm test`: type-checks, builds, runs the unit tests, then the integration tests
// inside `firebase emulators:exec` (which fails the run if the emulators do not
// start), and ends with one summary line.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EMULATORS, TEST_PROJECT_ID, buildFunctions, emulatorEnv, ensureLocalSecrets } from './lib/emulators.mjs';
import { cacheDir, functionsDir, repoRoot } from './lib/paths.mjs';

const resultsDir = join(cacheDir, 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

console.log(`Node ${process.version}`);
execFileSync('npm', ['run', '--silent', 'typecheck'], { cwd: functionsDir, stdio: 'inherit' });
buildFunctions();
ensureLocalSecrets();

const jestArgs = (tier) => `--selectProjects ${tier} --json --outputFile=${join(resultsDir, `${tier}.json`)}`;
const unit = spawnSync('npx', ['jest', ...jestArgs('unit').split(' ')], { cwd: functionsDir, stdio: 'inherit' });

const integration = spawnSync(
  'npx',
  [
    'firebase',
    'emulators:exec',
    '--only',
    EMULATORS,
    '--project',
    TEST_PROJECT_ID,
    `cd functions && npx jest --runInBand ${jestArgs("integration")}`,
  ],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...emulatorEnv() } },
);

let passed = 0;
let failed = 0;
for (const tier of ['unit', 'integration']) {
  try {
    const results = JSON.parse(readFileSync(join(resultsDir, `${tier}.json`), 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
  } catch {
    console.error(`No results from the ${tier} tests.`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(unit.status === 0 && integration.status === 0 && failed === 0 ? 0 : 1);
