import { logInfo } from '../log';
import { sweepDeletedAccounts, type UsersSweepOutcome } from '../services/erasure';

/**
 * The scheduled users sweep (daily): erases the profiles whose Auth account was
 * deleted in the Firebase console (2nd gen has no trigger for a deletion). The
 * functions emulator runs no schedules (firebase-tools issue 2034), so `npm start`
 * runs it on a timer through `admin users:sweep`, and the tests run it through
 * firebase-functions-test.
 */
export async function runUsersSweep(): Promise<UsersSweepOutcome> {
  const outcome = await sweepDeletedAccounts();
  logInfo('users_sweep', { ...outcome });
  return outcome;
}
