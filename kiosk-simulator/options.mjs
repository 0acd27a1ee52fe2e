// @ts-check
// The kiosk simulator's command line: its commands and flags, declared once; the
// help is built from the declarations, and the parser accepts only what they declare.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FINAL_REFUSALS } from './journal.ts';
import { LOCAL_PROJECT_ID, apiUrl } from '../scripts/lib/emulators.mjs';
import { cacheDir } from '../scripts/lib/paths.mjs';

/** A bad command line: the reason and the usage, exit 2. */
export class UsageError extends Error {}

/**
 * @typedef {{ value?: string, description: string, fallback?: string }} FlagSpec
 *   `value`: the placeholder of a flag that takes one (absent: a switch)
 * @typedef {{ name: string, summary: string, flags: Record<string, FlagSpec>, example?: string }} CommandSpec
 */

const DEFAULT_KIOSK = 'berlin-alexanderplatz';

/** @type {Record<string, FlagSpec>} */
export const GLOBAL_FLAGS = {
  api: {
    value: 'URL',
    description: 'base URL of the API',
    fallback: `the local emulator, ${apiUrl(LOCAL_PROJECT_ID)}`,
  },
  key: { value: 'KEY', description: "this kiosk's API key", fallback: 'the environment variable KIOSK_KEY' },
  kiosk: { value: 'ID', description: 'the kiosk this is', fallback: `${DEFAULT_KIOSK} (the demo kiosk of npm start)` },
  journal: { value: 'FILE', description: 'the journal file', fallback: '.cache/kiosk/<kiosk>.json' },
  attempts: { value: 'N', description: 'sends per request before giving up for now', fallback: '8' },
};

const STATUS_FLAGS = {
  'fill-plastic': { value: 'PERCENT', description: 'telemetry: the plastic bin is this full (0-100)' },
  'fill-metal': { value: 'PERCENT', description: 'telemetry: the metal bin is this full (0-100)' },
  firmware: { value: 'VERSION', description: 'telemetry: the firmware version' },
};

/** @type {CommandSpec[]} */
export const COMMANDS = [
  {
    name: 'status',
    summary: 'Reports the kiosk status (POST /kiosk/{id}/status), with telemetry only when a telemetry flag is given.',
    flags: {
      status: { value: 'STATUS', description: 'available, maintenance or offline', fallback: 'available' },
      ...STATUS_FLAGS,
      'error-code': { value: 'CODE', description: 'telemetry: the error the kiosk is in' },
      'clear-error': { description: 'telemetry: the kiosk is out of its error (errorCode null)' },
    },
    example: 'npm run kiosk -- status --status maintenance --fill-plastic 95 --firmware 2.4.1',
  },
  {
    name: 'deposit',
    summary:
      'Takes one deposit into the journal and sends it alone (POST /kiosk/transaction with its Idempotency-Key); with --offline it is only recorded, for a later flush.',
    flags: {
      user: { value: 'USER', description: 'the user id the deposit is for (this or --anonymous)' },
      anonymous: {
        description:
          'the recycler did not identify: the kiosk shows the claim code it is answered with (and its QR code)',
      },
      plastic: { value: 'N', description: 'plastic items', fallback: '1' },
      metal: { value: 'N', description: 'metal items', fallback: '0' },
      at: {
        value: 'TIME',
        description: 'when it happened, RFC 3339 (e.g. 2026-11-21T16:04:10+01:00)',
        fallback: 'now',
      },
      ago: { value: 'DURATION', description: 'when it happened, this long ago (e.g. 36h, 3d)' },
      offline: { description: 'no connection: record it only' },
    },
    example: 'npm run kiosk -- deposit --user demo-alice --plastic 3 --metal 2 --ago 2d --offline',
  },
  {
    name: 'flush',
    summary:
      'Uploads the backlog of the journal, oldest first, in batches (POST /kiosk/transactions/batch); every pending deposit is sent once.',
    flags: { batch: { value: 'N', description: 'deposits per batch, 1-100', fallback: '100' } },
  },
  {
    name: 'journal',
    summary: 'Shows the journal: pending deposits and the refused ones.',
    flags: {
      'forget-rejected': { description: 'empties the list of refused deposits (once an operator settled them)' },
    },
  },
  {
    name: 'run',
    summary:
      'Behaves as a kiosk in use: deposits by random users at a steady rate, status reports, a connection lost and found again, the backlog uploaded on reconnect; then a summary. Ctrl-C stops it (the journal keeps what is pending).',
    flags: {
      users: { value: 'U1,U2,...', description: 'the users who deposit (required)' },
      rate: { value: 'RATE', description: 'deposits per second or minute, e.g. 2/s, 30/min', fallback: '1/s' },
      duration: { value: 'DURATION', description: 'how long it runs', fallback: '60s' },
      'offline-after': {
        value: 'DURATION',
        description: 'the connection is lost this long after the start',
        fallback: 'never',
      },
      'offline-for': {
        value: 'DURATION',
        description: 'and found again this long after that',
        fallback: 'until the end',
      },
      backdate: {
        value: 'DURATION',
        description:
          "spreads the buffered deposits' occurredAt over this long before now, oldest first (e.g. 6d: an offline week in a minute)",
      },
      'status-every': {
        value: 'DURATION',
        description: 'status report (and flush of any backlog) while connected',
        fallback: '30s',
      },
      batch: { value: 'N', description: 'deposits per batch on reconnect, 1-100', fallback: '100' },
      telemetry: {
        description: 'status reports carry fill levels (rising with the items taken) and the firmware version',
      },
      'bin-size': { value: 'N', description: 'with --telemetry: items a bin holds when 100% full', fallback: '400' },
      firmware: {
        value: 'VERSION',
        description: 'with --telemetry: the firmware version reported',
        fallback: 'kiosk-sim/1.0',
      },
    },
    example:
      'npm run kiosk -- run --users demo-alice,demo-bob --rate 2/s --duration 3m --offline-after 30s --offline-for 2m --backdate 6d',
  },
];

const flagLabel = (/** @type {string} */ name, /** @type {FlagSpec} */ spec) =>
  spec.value ? `--${name} ${spec.value}` : `--${name}`;

/** @param {Record<string, FlagSpec>} flags */
const flagLines = (flags, indent = '      ') =>
  Object.entries(flags).map(
    ([name, spec]) =>
      `${indent}${flagLabel(name, spec).padEnd(28)} ${spec.description}${spec.fallback ? ` (default: ${spec.fallback})` : ''}`,
  );

export const USAGE = [
  'Kiosk simulator: a kiosk as its firmware behaves, against the API.',
  '',
  'Usage: npm run kiosk -- <command> [flags]',
  '',
  'Flags of every command:',
  ...flagLines(GLOBAL_FLAGS, '  '),
  '',
  'Commands:',
  ...COMMANDS.flatMap((command) => [
    `  ${command.name}`,
    `      ${command.summary}`,
    ...(command.example ? [`      e.g. ${command.example}`] : []),
    ...flagLines(command.flags, '        '),
  ]),
  '  help',
  '      This text (also -h or --help).',
  '',
  'Every deposit is written to the journal before it is sent, under an Idempotency-Key of',
  'its own (<kiosk>-<series>-<n>), and leaves the journal only on a final answer:',
  '  200        accepted (an award, or a replay of an earlier send: counted once either way)',
  ...Object.entries(FINAL_REFUSALS).map(
    ([status, why]) => `  ${status}        refused for good: ${why}; kept in the journal's refused list`,
  ),
  'Anything else keeps it for the next upload under the same key: no answer, 5xx, 429 (after',
  'its Retry-After), 409 (the kiosk is not available), any other status. Requests are sent',
  'again blindly on no answer, 5xx and 429, with exponential backoff from 0.5 s to 30 s, or',
  "after the answer's Retry-After when longer. Batch items answered 503 overloaded (the service",
  "protecting itself, nothing written) are sent again under their keys after the batch's",
  'Retry-After (5 s without one).',
  'Exit status: 0 done, 1 something is left in the journal or got no answer, 2 bad usage.',
].join('\n');

/**
 * `<command> [flags]` read against the declarations: global flags anywhere, a
 * command's flags only with it.
 * @param {string[]} argv
 * @returns {{ command: string, flags: Record<string, string | boolean>, options: ReturnType<typeof globalOptions> }}
 */
export function parseCommandLine(argv) {
  if (argv.length === 0 || argv.some((arg) => arg === '--help' || arg === '-h') || argv[0] === 'help') {
    return { command: 'help', flags: {}, options: globalOptions({}) };
  }
  /** @type {Record<string, { type: 'string' | 'boolean' }>} */
  const options = {};
  for (const flags of [GLOBAL_FLAGS, ...COMMANDS.map((command) => command.flags)]) {
    for (const [name, spec] of Object.entries(flags)) options[name] = { type: spec.value ? 'string' : 'boolean' };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [name, ...rest] = parsed.positionals;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"`);
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  for (const flag of Object.keys(parsed.values)) {
    if (!Object.hasOwn(GLOBAL_FLAGS, flag) && !Object.hasOwn(command.flags, flag))
      throw new UsageError(`--${flag} is not a flag of ${command.name}`);
  }
  const flags = /** @type {Record<string, string | boolean>} */ (parsed.values);
  return { command: command.name, flags, options: globalOptions(flags) };
}

/** @param {Record<string, string | boolean | undefined>} flags */
function globalOptions(flags) {
  const kioskId = text(flags.kiosk) ?? DEFAULT_KIOSK;
  return {
    api: (text(flags.api) ?? apiUrl(LOCAL_PROJECT_ID)).replace(/\/+$/, ''),
    apiKey: text(flags.key) ?? process.env.KIOSK_KEY,
    kioskId,
    journalPath: text(flags.journal) ?? join(cacheDir, 'kiosk', `${encodeURIComponent(kioskId)}.json`),
    attempts: flags.attempts === undefined ? 8 : wholeNumber('attempts', flags.attempts, 1, 1000),
  };
}

const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : undefined);

/**
 * @param {string} name
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 */
export function wholeNumber(name, value, min, max) {
  const number = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isInteger(number) || number < min || number > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not '${value}'`);
  return number;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `500ms`, `30s`, `2m`, `1.5h`, `6d` in milliseconds.
 * @param {string} name
 * @param {unknown} value
 */
export function duration(name, value) {
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|min|m|h|d)$/.exec(value.trim()) : null;
  if (!match) throw new UsageError(`--${name} must be a duration such as 500ms, 30s, 2m, 1h or 6d, not '${value}'`);
  return Number(match[1]) * UNIT_MS[/** @type {keyof typeof UNIT_MS} */ (match[2])];
}

/**
 * `2/s`, `30/min`, `0.5/s` as deposits per second.
 * @param {unknown} value
 */
export function rate(value) {
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)\/(s|min|m|h)$/.exec(value.trim()) : null;
  const perSecond = match ? (Number(match[1]) * 1000) / UNIT_MS[/** @type {keyof typeof UNIT_MS} */ (match[2])] : 0;
  if (!match || perSecond <= 0 || perSecond > 100)
    throw new UsageError(
      `--rate must be deposits per second or minute, e.g. 2/s or 30/min (at most 100/s), not '${value}'`,
    );
  return perSecond;
}
