import { fleetSettings } from '../config';
import { logInfo } from '../log';
import { foldStaleKioskTransactions } from '../services/kioskFold';
import { sweepSilentKiosks, type SweepOutcome } from '../services/silentSweep';

/**
 * The scheduled sweep (every 5 minutes): opens `silent` alerts, and counts on their
 * kiosks the transactions whose trigger has not (the fold's safety net). The
 * functions emulator runs no schedules (firebase-tools issue 2034), so `npm start`
 * runs this same handler on a timer through `admin alerts:sweep`, and the tests run
 * it through firebase-functions-test.
 */
export async function runSilentSweep(): Promise<
  SweepOutcome & { staleFolded: { kiosks: number; transactions: number } }
> {
  const outcome = await sweepSilentKiosks(new Date(), fleetSettings().onlineMinutes);
  const staleFolded = await foldStaleKioskTransactions();
  logInfo('silent_sweep', { ...outcome, staleKiosks: staleFolded.kiosks, staleTransactions: staleFolded.transactions });
  return { ...outcome, staleFolded };
}
