// `npm test`: lint, formatting, types (scripts, functions, console), build, the unit tests, the integration tests in
// `firebase emulators:exec`, the console's browser tests against the whole stack, then one summary line.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import {
  EMULATORS,
  TEST_PROJECT_ID,
  buildConsole,
  buildFunctions,
  consoleDir,
  runInEmulators,
} from './lib/emulators.mjs';
import { cacheDir, functionsDir, repoRoot } from './lib/paths.mjs';

/**
 * Emulator lines that explain a failed run (a function threw, was killed or timed out, a worker did not start, the
 * service's WARNING/ERROR events): repeated at the end, past thousands of lines, so a CI failure shows its cause.
 */
const PROBLEM =
  /Your function (was killed|timed out)|Failed to (start|handle|load)|Request to function failed|^⚠ {2}functions:|"severity":"(ERROR|WARNING)"/;
const KEPT_PROBLEMS = 40;

/** The first line of a Jest failure message, colours stripped, past Jest's heading "● Test suite failed to run". */
const firstLine = (/** @type {string | undefined} */ message) =>
  stripVTControlCharacters(message ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line && line !== '● Test suite failed to run') ?? '';

const resultsDir = join(cacheDir, 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

console.log(`Node ${process.version}`);
// Lint, format and types first: the cheapest failures, before any emulator starts.
execFileSync('npx', ['eslint', '.'], { cwd: repoRoot, stdio: 'inherit' });
execFileSync('npx', ['prettier', '--check', '--log-level=warn', '.'], { cwd: repoRoot, stdio: 'inherit' });
execFileSync('npx', ['tsc', '-p', 'tsconfig.scripts.json'], { cwd: repoRoot, stdio: 'inherit' });
execFileSync('npm', ['run', '--silent', 'typecheck'], { cwd: functionsDir, stdio: 'inherit' });
execFileSync('npm', ['run', '--silent', 'typecheck'], { cwd: consoleDir, stdio: 'inherit' });
buildFunctions();
buildConsole();

// `npm test -- <pattern...>` runs only the test files matching the patterns (every tier), matched against the path
// inside the tier's folder: a checkout in a folder named like a test (`/work/wt-webhooks`) must not match every file.
const patterns = process.argv.slice(2);
const jestPatterns = patterns.map((pattern) => `/test/(unit|integration)/.*(${pattern})`);
// --ci: a snapshot missing from the checkout fails instead of being written (the API description's is reviewed).
const jestArgs = (/** @type {'unit' | 'integration'} */ tier) => [
  '--ci',
  '--selectProjects',
  tier,
  '--json',
  `--outputFile=${join(resultsDir, `${tier}.json`)}`,
  ...(patterns.length ? ['--passWithNoTests', ...jestPatterns] : []),
];
const unit = spawnSync('npx', ['jest', ...jestArgs('unit')], { cwd: functionsDir, stdio: 'inherit' });

// The integration tier's output, passed through, keeping the last problem lines.
const problems = /** @type {string[]} */ ([]);
const keepProblem = (/** @type {string} */ line) => {
  if (!PROBLEM.test(line)) return;
  problems.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
  if (problems.length > KEPT_PROBLEMS) problems.shift();
};
const integrationStatus = await runInEmulators({
  projectId: TEST_PROJECT_ID,
  cwd: functionsDir,
  command: ['npx', 'jest', '--runInBand', ...jestArgs('integration')],
  onLine: keepProblem,
});

// The browser tier: Node's test runner drives Chromium through the console on the Hosting emulator.
const browserTests = readdirSync(join(consoleDir, 'test'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join('test', name))
  .filter((file) => !patterns.length || patterns.some((pattern) => new RegExp(pattern).test(file)));
const browserStatus = browserTests.length
  ? await runInEmulators({
      projectId: TEST_PROJECT_ID,
      only: EMULATORS,
      cwd: consoleDir,
      command: [
        'node',
        '--test',
        '--test-concurrency=1',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${join(repoRoot, 'scripts', 'lib', 'node-test-results.mjs')}`,
        `--test-reporter-destination=${join(resultsDir, 'browser.json')}`,
        ...browserTests,
      ],
      onLine: keepProblem,
    })
  : 0;

let [passed, failed] = [0, 0];
const failures = /** @type {string[]} */ ([]);
const tiers = /** @type {const} */ (['unit', 'integration', 'browser']);
for (const tier of browserTests.length ? tiers : tiers.slice(0, 2)) {
  try {
    const results = /** @type {JestResults} */ (JSON.parse(readFileSync(join(resultsDir, `${tier}.json`), 'utf8')));
    passed += results.numPassedTests;
    failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
    for (const suite of results.testResults) {
      const failedTests = suite.assertionResults.filter((assertion) => assertion.status === 'failed');
      for (const test of failedTests)
        failures.push(`${tier}: ${test.fullName}: ${firstLine(test.failureMessages.join('\n'))}`);
      // A suite that failed without a failed test did not run (or a hook of it threw).
      if (suite.status === 'failed' && !failedTests.length)
        failures.push(`${tier}: ${relative(functionsDir, suite.name)}: ${firstLine(suite.message)}`);
    }
  } catch {
    console.error(`No results from the ${tier} tests.`);
    failed += 1;
  }
}
if (failed > 0 || integrationStatus !== 0 || browserStatus !== 0) {
  console.log(`\nEmulator output that may explain the failure (last ${KEPT_PROBLEMS} matching lines):`);
  for (const line of problems.length ? problems : ['(none)']) console.log(`  ${line}`);
  // The Firestore emulator writes lock timeouts only to its own log.
  const firestoreLog = join(repoRoot, 'firestore-debug.log');
  if (existsSync(firestoreLog)) {
    const lockTimeouts =
      readFileSync(firestoreLog, 'utf8').split('WARNING: Operation failed: Transaction lock timeout').length - 1;
    console.log(`Firestore emulator transaction lock timeouts: ${lockTimeouts}`);
  }
  if (failures.length) console.log(`\nFailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
}
console.log(`${passed} passed, ${failed} failed`);
/**
 * What jest --json writes, as far as the summary reads it.
 * @typedef {{ numPassedTests: number, numFailedTests: number, numRuntimeErrorTestSuites: number,
 *   testResults: { name: string, status: string, message?: string,
 *     assertionResults: { status: string, fullName: string, failureMessages: string[] }[] }[] }} JestResults
 */
process.exit(unit.status === 0 && integrationStatus === 0 && browserStatus === 0 && failed === 0 ? 0 : 1);
