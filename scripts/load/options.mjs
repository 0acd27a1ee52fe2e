// The load test's size flags, read by scripts/loadtest.mjs (before it starts the emulators) and scripts/load/run.mjs.
import { parseArgs } from 'node:util';

/** Per size: its default, the smallest allowed, its value in a quick run, what it sizes, the largest allowed. */
const SIZES = /** @satisfies {Record<string, [number, number, number | undefined, string, number?]>} */ ({
  kiosks: [50, 1, 10, 'kiosks in the fleet phase (one connection each)'],
  users: [200, 1, 20, 'users the fleet phase awards points to'],
  duration: [60, 1, 10, 'seconds of the fleet phase'],
  hot: [100, 0, 20, 'concurrent awards to one user in the hot phase'],
  retries: [100, 0, 10, 'requests of the retries phase, each sent 2-5 times'],
  offlineKiosks: [10, 0, 2, 'kiosks of the offline phase, each with a backlog to upload'],
  offlineDeposits: [120, 1, 30, 'deposits each offline kiosk keeps in its journal'],
  // OFFLINE_MAX_DAYS (7) bounds how old a deposit may be when it arrives.
  offlineDays: [6, 1, undefined, 'days back the offline deposits are spread over', 6],
  spenders: [40, 1, 5, 'users of the mixed phase, who earn, redeem and are adjusted'],
  rush: [100, 0, 20, 'concurrent redemptions of a reward with a stock of 10 in the mixed phase'],
  mixedRounds: [5, 1, 2, 'rounds of the mixed phase: deposits, a redemption and an adjustment per spender'],
  dormant: [20, 1, 4, 'users of the mixed phase whose old points the expiry run expires while they deposit'],
  leavers: [20, 1, 4, 'users of the mixed phase erased while they deposit'],
  claims: [100, 0, 20, 'deposits without a user in the claims phase (half alone), four in five claimed at once by two'],
});

/** `offlineKiosks` → `offline-kiosks` */
const flag = (/** @type {string} */ name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const quickRun = Object.entries(SIZES).flatMap(([name, [, , quick]]) =>
  quick === undefined ? [] : [`--${flag(name)} ${quick}`],
);
export const USAGE = [
  'Usage: npm run loadtest -- [--<flag> N]...',
  ...Object.entries(SIZES).map(
    ([name, [fallback, , , what]]) => `  --${flag(name).padEnd(16)} ${what} (default ${fallback})`,
  ),
  `A quick run: npm run loadtest -- ${quickRun.join(' ')}`,
].join('\n');

/** The sizes in `args`, defaults for the rest; throws on an unknown flag or a bad value. @param {string[]} args */
export function loadOptions(args) {
  const options = Object.fromEntries(Object.keys(SIZES).map((name) => [flag(name), { type: 'string' }]));
  const { values } = parseArgs({ args, options: /** @type {Record<string, { type: 'string' }>} */ (options) });
  const sizes = Object.entries(SIZES).map(([name, [fallback, min, , , max = Infinity]]) => {
    const given = values[flag(name)];
    const value = Number(given ?? fallback);
    if (given?.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new Error(`--${flag(name)} must be a whole number ${range}, not '${given}'`);
    }
    return [name, value];
  });
  return /** @type {Record<keyof typeof SIZES, number>} */ (Object.fromEntries(sizes));
}
