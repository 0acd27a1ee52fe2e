// @ts-check
// The local stack's stand-in for Cloud Scheduler. The functions emulator does not run
// scheduled functions (firebase-tools issue 2034), so `npm start` runs the silent
// sweep, the scheduled function's own handler, every 5 minutes as deployed: through
// the operator CLI (`admin alerts:sweep`), against the local emulators.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HOSTS, LOCAL_PROJECT_ID } from './emulators.mjs';
import { functionsDir, repoRoot } from './paths.mjs';

/** As `schedule: 'every 5 minutes'` in functions/src/index.ts. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Runs the sweep every 5 minutes until the process ends, one run at a time; each
 * run's outcome (or failure) is one line through `log`.
 * @param {(line: string) => void} log
 */
export function startSilentSweep(log) {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    const proc = spawn(process.execPath, [join(functionsDir, 'lib', 'cli', 'admin.js'), 'alerts:sweep'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FIRESTORE_EMULATOR_HOST: HOSTS.firestore, GCLOUD_PROJECT: LOCAL_PROJECT_ID },
    });
    let result = '';
    let notes = '';
    proc.stdout.on('data', (chunk) => (result += chunk));
    proc.stderr.on('data', (chunk) => (notes += chunk));
    proc.on('close', (code) => {
      running = false;
      const oneLine = (/** @type {string} */ text) => text.trim().replace(/\s+/g, ' ');
      log(
        code === 0 ? `silent sweep: ${oneLine(result)}` : `silent sweep failed (exit code ${code}): ${oneLine(notes)}`,
      );
    });
  };
  setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}
