// @ts-check
// RELIABILITY.md, as tables generated from the figures of a load run and the per-file
// results of the last `npm test` (.cache/test-results): no figure in it is typed by
// hand. Run on its own (`node scripts/load/report.mjs`) it rewrites the report from the
// figures the last load run saved, with the results of a newer `npm test`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, repoRoot } from '../lib/paths.mjs';

const FIGURES_FILE = join(cacheDir, 'loadtest-figures.json');

/** The suites of `npm test` that inject faults or hostile input (functions/test/), and what each covers. */
const SUITES = {
  Faults: {
    'transactions.test.ts':
      'push provider unregistered / unavailable, kiosk not available, daily cap, concurrent and repeated Idempotency-Keys, 50 concurrent awards',
    'kiosk-simulator.test.ts':
      'a kiosk offline for days: its journal across a restart, the first batch answer lost and the batch sent again blindly (a replay), books and daily figures exact; 409 keeps the backlog',
    'triggers.test.ts': 'trigger redelivered (firebase-functions-test, twice), a run that died after claiming the push',
    'otp.test.ts':
      'mail server refusing and down: 502, quota not burned; per-address and per-IP flooding: 429 + Retry-After',
    'redemptions.test.ts':
      'concurrent redemptions against a stock of 3 and a balance for 2, one key sent 10 times at once, replays and reused keys, cancel twice, the notification once under trigger redelivery',
    'adjustments.test.ts':
      '20 concurrent adjustments of -10 against a balance of 100 (exactly 10, never below 0), past zero refused with nothing written, key replay and reuse',
    'notify.test.ts': 'unregistered token 410 and removed, provider down 502, nothing half-written',
  },
  'Hostile input': {
    'fuzz.test.ts': 'property-based: random bodies, types, sizes, unicode, path ids, headers on every endpoint',
    'security.test.ts': 'expired, foreign-project and malformed ID tokens',
    'protocol.test.ts': 'unknown routes, methods, malformed JSON, content types, oversized bodies, path ids, CORS',
    'kiosks.test.ts': 'missing, wrong and revoked kiosk keys; kiosk A key on kiosk B',
    'users.test.ts': 'user A token on user B on every user endpoint (BOLA)',
    'admin.test.ts': 'non-admin on every admin endpoint',
    'firestore-rules.test.ts': 'security rules: every client write denied but a notification read flag',
    'log.test.ts': 'log events carry no stack traces',
  },
};

/** Passed and failed tests per file name in the last `npm test`, and when it started. */
function lastTestRun() {
  /** @type {Map<string, string>} */
  const results = new Map();
  let started;
  for (const tier of ['unit', 'integration']) {
    const file = join(cacheDir, 'test-results', `${tier}.json`);
    if (!existsSync(file)) continue;
    const run = JSON.parse(readFileSync(file, 'utf8'));
    started = new Date(run.startTime).toISOString();
    for (const suite of run.testResults) {
      const count = (/** @type {string} */ status) =>
        suite.assertionResults.filter((/** @type {{ status: string }} */ test) => test.status === status).length;
      results.set(basename(suite.name), `${count('passed')} passed, ${count('failed')} failed`);
    }
  }
  return { results, started };
}

/** `askedAgain` → `asked again`. */
const words = (/** @type {string} */ key) => key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

/**
 * One value in a table cell: whole numbers as they are, others to one decimal, objects as `key: value, ...`.
 * @param {unknown} value
 * @returns {string}
 */
function show(value) {
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
  if (value && typeof value === 'object')
    return (
      Object.entries(value)
        .map(([key, v]) => `${words(key)}: ${show(v)}`)
        .join(', ') || 'none'
    );
  return value === undefined || value === null || Number.isNaN(value) ? 'n/a' : String(value);
}

/**
 * @param {string[]} header
 * @param {unknown[][]} rows
 */
const table = (header, rows) =>
  [header, header.map(() => '---'), ...rows.map((row) => row.map(show))]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');

/**
 * The load run's tables: each phase's figures, the totals, and the books' checks.
 * @param {any} figures what run.mjs measured
 */
export function loadTables(figures) {
  const phases = Object.entries(figures.phases).flatMap(([phase, values]) =>
    Object.entries(/** @type {object} */ (values)).map(([key, value], i) => [i === 0 ? phase : '', words(key), value]),
  );
  const checks = /** @type {import('./books.mjs').Check[]} */ (figures.checks).map(({ check, expected, found, ok }) => [
    check,
    expected,
    found,
    ok ? 'yes' : '**no**',
  ]);
  return [
    table(['Phase', 'Figure', 'Value'], phases),
    table(['Figure', 'Value'], Object.entries(figures.totals)),
    table(['Books: check', 'Expected', 'Found', 'Holds'], checks),
  ].join('\n\n');
}

/** @param {any} figures what run.mjs measured (also saved, for a rewrite with newer suite results) */
export function writeReliabilityReport(figures) {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(FIGURES_FILE, JSON.stringify(figures, null, 2));
  const { results, started } = lastTestRun();
  const suites = Object.entries(SUITES).flatMap(([kind, files]) =>
    Object.entries(files).map(([file, what]) => [
      kind,
      `\`${file}\``,
      what,
      results.get(file) ?? 'not in the last run',
    ]),
  );
  const text = `# Reliability

Written by \`npm run loadtest\` on ${figures.date}, with the results of the last \`npm test\`${started ? ` (started ${started})` : ''}.
Regenerate both with \`npm test && npm run loadtest\`; what each phase and each check does: docs/testing.md.
Everything ran on the Firebase emulator suite on one machine of 2 cores: the emulator's figures, not production's.

## Load: \`npm run loadtest\`

${loadTables(figures)}

**books: ${figures.books}**

## Faults and hostile input: \`npm test\`

${table(['Kind', 'File (functions/test/)', 'What', 'Last run'], suites)}
`;
  writeFileSync(join(repoRoot, 'RELIABILITY.md'), text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(FIGURES_FILE)) {
    console.error('No load figures yet: run `npm run loadtest` first.');
    process.exit(1);
  }
  writeReliabilityReport(JSON.parse(readFileSync(FIGURES_FILE, 'utf8')));
  console.log('RELIABILITY.md rewritten.');
}
