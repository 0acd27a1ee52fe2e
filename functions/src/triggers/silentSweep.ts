import { fleetSettings } from '../config';
import { timeBudget } from '../domain/timeBudget';
import { logInfo } from '../log';
import { foldStaleKioskTransactions } from '../services/kioskFold';
import { sweepSilentKiosks, type SweepOutcome } from '../services/silentSweep';

/**
 * How long a scheduled run starts new work (domain/timeBudget.ts), shared by its two
 * parts: the batch of kiosks judged and the kiosk folded after it is spent each take
 * at most one Firestore transaction's 30 s (contention.deadlineMs in
 * adapters/firestore.ts), so the run ends within 120 + 30 + 30 s, under the
 * function's 240 s timeout (index.ts).
 */
export const SILENT_SWEEP_BUDGET_MS = 120_000;

/**
 * The scheduled sweep (every 5 minutes): opens `silent` alerts, and counts on their
 * kiosks the transactions whose trigger has not (the fold's safety net), within its
 * time budget (`budgetMs`); the next run takes what is left. The functions emulator
 * runs no schedules (firebase-tools issue 2034), so `npm start` runs this same handler
 * on a timer through `admin alerts:sweep`, and the tests run it through
 * firebase-functions-test.
 */
export async function runSilentSweep({ budgetMs = SILENT_SWEEP_BUDGET_MS }: { budgetMs?: number } = {}): Promise<
  SweepOutcome & { staleFolded: { kiosks: number; transactions: number } }
> {
  const budget = timeBudget(budgetMs);
  const outcome = await sweepSilentKiosks(new Date(), fleetSettings().onlineMinutes, budget);
  const staleFolded = await foldStaleKioskTransactions({ budget });
  logInfo('silent_sweep', { ...outcome, staleKiosks: staleFolded.kiosks, staleTransactions: staleFolded.transactions });
  return { ...outcome, staleFolded };
}
