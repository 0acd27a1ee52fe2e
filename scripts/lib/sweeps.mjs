// @ts-check
// The local stack's Cloud Scheduler (the functions emulator runs no scheduled function): every 5 minutes, each one's
// handler through the operator CLI (the daily users sweep too, so erasures show while the demo runs).
import { LOCAL_PROJECT_ID, runAdmin } from './emulators.mjs';

/** As `schedule: 'every 5 minutes'` of silentKioskSweep and effectsSweep in functions/src/index.ts. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

/** The scheduled functions: what each is called in the log, and the CLI command that runs its handler. */
export const SCHEDULED_SWEEPS = [
  { name: 'silent sweep', command: 'alerts:sweep' },
  { name: 'effects sweep', command: 'effects:sweep' },
  // Hourly when deployed (pointsExpiry: the day's run, continued until done); here every 5 minutes, each run whole: a
  // run for a day changes nothing the first run of that day did not, and reads only users with points expiring soon.
  { name: 'expiry run', command: 'expiry:run' },
  { name: 'users sweep', command: 'users:sweep' },
];

/**
 * Runs CLI `command` every 5 minutes, one run at a time, each outcome one line through `log`, led by `name`.
 * @param {{ name: string, command: string }} sweep @param {(line: string) => void} log
 */
export function startSweep({ name, command }, log) {
  let running = false;
  const oneLine = (/** @type {string} */ text) => text.trim().replace(/\s+/g, ' ');
  const sweep = async () => {
    if (running) return;
    running = true;
    const { status, stdout, stderr } = await runAdmin(LOCAL_PROJECT_ID, [command]);
    running = false;
    log(status ? `${name} failed (exit code ${status}): ${oneLine(stderr)}` : `${name}: ${oneLine(stdout)}`);
  };
  setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}
