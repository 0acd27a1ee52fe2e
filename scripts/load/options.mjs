// @ts-check
// The load test's size flags, read by scripts/loadtest.mjs (before it starts the
// emulators) and by scripts/load/run.mjs. Each is `--name value` or `--name=value`.
import { parseArgs } from 'node:util';

/**
 * @typedef {'kiosks' | 'users' | 'duration' | 'hot' | 'retries' | 'offline-kiosks' | 'offline-deposits' | 'offline-days' | 'spenders' | 'rush' | 'mixed-rounds' | 'dormant' | 'leavers'} Flag
 * @type {Record<Flag, [number, number, string, number?]>} Flag → [default, smallest allowed, what it sizes, largest allowed].
 */
const FLAGS = {
  kiosks: [50, 1, 'kiosks in the fleet phase (one connection each)'],
  users: [200, 1, 'users the fleet phase awards points to'],
  duration: [60, 1, 'seconds of the fleet phase'],
  hot: [100, 0, 'concurrent awards to one user in the hot phase'],
  retries: [100, 0, 'requests of the retries phase, each sent 2-5 times'],
  'offline-kiosks': [10, 0, 'kiosks of the offline phase, each with a backlog to upload'],
  'offline-deposits': [120, 1, 'deposits each offline kiosk keeps in its journal'],
  // OFFLINE_MAX_DAYS (7) bounds how old a deposit may be when it arrives.
  'offline-days': [6, 1, 'days back the offline deposits are spread over', 6],
  spenders: [40, 1, 'users of the mixed phase, who earn, redeem and are adjusted'],
  rush: [100, 0, 'concurrent redemptions of a reward with a stock of 10 in the mixed phase'],
  'mixed-rounds': [5, 1, 'rounds of the mixed phase: deposits, a redemption and an adjustment per spender'],
  dormant: [20, 1, 'users of the mixed phase whose old points the expiry run expires while they deposit'],
  leavers: [20, 1, 'users of the mixed phase erased while they deposit'],
};

export const USAGE = [
  'Usage: npm run loadtest -- [--kiosks N] [--users N] [--duration S] [--hot N] [--retries N]',
  '         [--offline-kiosks N] [--offline-deposits N] [--offline-days N]',
  '         [--spenders N] [--rush N] [--mixed-rounds N] [--dormant N] [--leavers N]',
  ...Object.entries(FLAGS).map(([name, [fallback, , what]]) => `  --${name.padEnd(16)} ${what} (default ${fallback})`),
  'A quick run: npm run loadtest -- --kiosks 10 --users 20 --duration 10 --hot 20 --retries 10 --offline-kiosks 2 --offline-deposits 30 --spenders 5 --rush 20 --mixed-rounds 2 --dormant 4 --leavers 4',
].join('\n');

/**
 * The sizes given in `args`, defaults for the rest. Throws, with the usage, on an
 * unknown flag, a missing value, or a value that is not a whole number in range.
 * @param {string[]} args
 */
export function loadOptions(args) {
  /** @type {Record<string, string | boolean | undefined>} */
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' }])),
    }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : error}\n${USAGE}`, { cause: error });
  }
  /** @param {Flag} name */
  const read = (name) => {
    const [fallback, min, , max = Infinity] = FLAGS[name];
    const given = values[name];
    if (typeof given !== 'string') return fallback;
    const value = Number(given);
    if (given.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new Error(`--${name} must be a whole number ${range}, not '${given}'\n${USAGE}`);
    }
    return value;
  };
  /** `offline-kiosks` → `offlineKiosks` */
  const camel = (/** @type {string} */ name) => name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());
  return Object.fromEntries(Object.keys(FLAGS).map((name) => [camel(name), read(/** @type {Flag} */ (name))]));
}
