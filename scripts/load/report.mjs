// RELIABILITY.md, every table generated (docs/operations.md, Reliability and load).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { table, words } from '../lib/markdown.mjs';
import { cacheDir, functionsDir, repoRoot } from '../lib/paths.mjs';

const FIGURES_FILE = join(cacheDir, 'loadtest-figures.json');

const integration = (/** @type {string} */ names) => names.split(' ').map((name) => `integration/${name}.test.ts`);
/** The suites of `npm test` (functions/test/) that inject faults or hostile input. */
const SUITES = {
  Faults: integration(
    'transactions kiosk-simulator triggers otp redemptions adjustments notify vouchers webhooks expiry erasure',
  ),
  'Hostile input': [...integration('fuzz security protocol kiosks users admin firestore-rules'), 'unit/log.test.ts'],
};

/** Per file of functions/test/ in the last `npm test`: its outermost describe blocks and results; when it started. */
function lastTestRun() {
  const suites = new Map();
  let started;
  for (const tier of ['unit', 'integration']) {
    const file = join(cacheDir, 'test-results', `${tier}.json`);
    if (!existsSync(file)) continue;
    const run = JSON.parse(readFileSync(file, 'utf8'));
    started = new Date(run.startTime).toISOString();
    for (const { name, assertionResults: tests } of run.testResults) {
      const count = (/** @type {string} */ status) =>
        tests.filter((/** @type {{ status: string }} */ test) => test.status === status).length;
      const topics = new Set(tests.map((/** @type {any} */ test) => test.ancestorTitles[0] ?? test.title));
      suites.set(relative(join(functionsDir, 'test'), name), {
        what: [...topics].join('; '),
        result: `${count('passed')} passed, ${count('failed')} failed`,
      });
    }
  }
  return { suites, started };
}

/** @param {unknown} value @returns {string} */
function show(value) {
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
  if (value && typeof value === 'object') {
    const shown = Object.entries(value).map(([key, v]) => `${words(key)}: ${show(v)}`);
    return shown.join(', ') || 'none';
  }
  return value === undefined || value === null || Number.isNaN(value) ? 'n/a' : String(value);
}

/** @param {any} figures what run.mjs measured */
export function loadTables(figures) {
  const phases = Object.entries(figures.phases).flatMap(([phase, values]) =>
    Object.entries(/** @type {object} */ (values)).map(([key, value], i) => [i === 0 ? phase : '', words(key), value]),
  );
  const checkRow = (/** @type {any} */ row) => [row.check, row.expected, row.found, row.ok ? 'yes' : '**no**'];
  return [
    table(['Phase', 'Figure', 'Value'], phases, show),
    table(['Figure', 'Value'], Object.entries(figures.totals), show),
    table(['Books: check', 'Expected', 'Found', 'Holds'], figures.checks.map(checkRow), show),
  ].join('\n\n');
}

/** @param {any} figures what run.mjs measured (also saved, for a rewrite with newer suite results) */
export function writeReliabilityReport(figures) {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(FIGURES_FILE, JSON.stringify(figures, null, 2));
  const { suites, started } = lastTestRun();
  const rows = Object.entries(SUITES).flatMap(([kind, names]) =>
    names.map((name) => {
      const suite = suites.get(name);
      return [kind, `\`${name}\``, suite?.what, suite?.result ?? 'not in the last run'];
    }),
  );
  const text = `# Reliability

Written by \`npm run loadtest\` on ${figures.date}, with the results of the last \`npm test\`${started ? ` (started ${started})` : ''}.
Regenerate both with \`npm test && npm run loadtest\`; what each phase and each check does: docs/testing.md.
Everything ran on the Firebase emulator suite on one machine of 2 cores: the emulator's figures, not production's.

## Load: \`npm run loadtest\`

${loadTables(figures)}

**books: ${figures.books}**

## Faults and hostile input: \`npm test\`

${table(['Kind', 'File (functions/test/)', 'What (its describe blocks)', 'Last run'], rows, show)}
`;
  writeFileSync(join(repoRoot, 'RELIABILITY.md'), text);
}

if (process.argv[1] === import.meta.filename) {
  if (!existsSync(FIGURES_FILE)) {
    console.error('No load figures yet: run `npm run loadtest` first.');
    process.exit(1);
  }
  writeReliabilityReport(JSON.parse(readFileSync(FIGURES_FILE, 'utf8')));
  console.log('RELIABILITY.md rewritten.');
}
