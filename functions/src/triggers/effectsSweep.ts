import { logInfo } from '../log';
import { pushTransport } from '../adapters/push';
import { sweepPendingEffects, type EffectsSweepOutcome } from '../services/pendingEffects';

/**
 * The scheduled effects sweep (every 5 minutes): completes the effects of
 * transactions, redemptions, alerts, expiry reminders, webhook events and voucher
 * uses that no trigger (or run) finished, and finishes the erasures, within its time
 * budget (`budgetMs`, EFFECTS_SWEEP_BUDGET_MS by default), continuing on its next run
 * where it stopped. The functions emulator runs no schedules (firebase-tools issue 2034), so `npm start` runs it on a
 * timer through `admin effects:sweep`, and the tests run it through
 * firebase-functions-test.
 */
export async function runEffectsSweep(options?: {
  minAgeMs?: number;
  budgetMs?: number;
}): Promise<EffectsSweepOutcome> {
  const outcome = await sweepPendingEffects(pushTransport(), options);
  logInfo('effects_sweep', { ...outcome });
  return outcome;
}
