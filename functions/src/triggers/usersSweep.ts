import { readSweepCursor, saveSweepCursor } from '../data/sweepCursors';
import { timeBudget } from '../domain/timeBudget';
import { logInfo } from '../log';
import { sweepDeletedAccounts, type UsersSweepOutcome } from '../services/erasure';

/** How long one run goes through profiles before it stops and leaves the rest to the next (timeout 540 s). */
export const USERS_SWEEP_BUDGET_MS = 300_000;

/**
 * The scheduled users sweep (daily): erases the profiles whose Auth account was
 * deleted in the Firebase console (2nd gen has no trigger for a deletion). A run that
 * spends its budget (`budgetMs`) stores the last profile it went through in
 * `sweepCursors/usersSweep`; the next run continues after it, and once it reaches the
 * end the one after starts from the first profile again. The functions emulator runs no
 * schedules (firebase-tools issue 2034), so `npm start` runs it on a timer through
 * `admin users:sweep`, and the tests run it through firebase-functions-test.
 */
export async function runUsersSweep({ budgetMs = USERS_SWEEP_BUDGET_MS }: { budgetMs?: number } = {}): Promise<
  UsersSweepOutcome & { unfinished: boolean }
> {
  const cursor = await readSweepCursor('usersSweep');
  const after = typeof cursor?.after === 'string' ? cursor.after : undefined;
  const outcome = await sweepDeletedAccounts('users-sweep', { after, budget: timeBudget(budgetMs) });
  await saveSweepCursor('usersSweep', { after: outcome.stoppedAfter ?? null });
  const result = { ...outcome, unfinished: outcome.stoppedAfter !== undefined };
  logInfo('users_sweep', { ...result });
  return result;
}
