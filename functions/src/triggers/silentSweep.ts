import { fleetSettings } from '../config';
import { logInfo } from '../log';
import { sweepSilentKiosks, type SweepOutcome } from '../services/silentSweep';

/**
 * The scheduled sweep (every 5 minutes) that opens `silent` alerts. The functions
 * emulator runs no schedules (firebase-tools issue 2034), so `npm start` runs this
 * same handler on a timer through `admin alerts:sweep`, and the tests run it through
 * firebase-functions-test.
 */
export async function runSilentSweep(): Promise<SweepOutcome> {
  const outcome = await sweepSilentKiosks(new Date(), fleetSettings().onlineMinutes);
  logInfo('silent_sweep', { ...outcome });
  return outcome;
}
