import { offlineWindowDays } from '../config';
import { assertDeposit, assertInOfflineWindow, oldestAcceptedDay, type DepositSubmission } from '../domain/deposit';
import {
  awardTransactions,
  type AwardOutcome,
  type DepositToAward,
  type SettledAward,
} from '../services/awardTransaction';
import { assertKioskMatches, type KioskCaller } from './auth';

/** A deposit as a kiosk sent it, with its Idempotency-Key (if any). */
export interface DepositRequest {
  submission: DepositSubmission;
  idempotencyKey?: string;
}

/**
 * Deposits from one kiosk, alone (POST /kiosk/transaction) or in a batch: each meets
 * the checks past its schema in the order a single submission meets them, then the
 * award (all of them together, see awardTransactions). Answered in order, one
 * deposit's failure (an ApiError, or an unexpected one) never failing another.
 *
 * A retry is answered from the record first: the offline window, like the kiosk's
 * status, is checked only of a deposit that is not recorded yet (after the award has
 * looked its key up), so a retry is never refused for a window that moved since.
 */
export async function acceptDeposits(requests: DepositRequest[], caller: KioskCaller): Promise<SettledAward[]> {
  const now = new Date();
  const offlineMaxDays = offlineWindowDays();
  const settled: SettledAward[] = new Array(requests.length);
  const accepted: { index: number; item: DepositToAward }[] = [];
  requests.forEach(({ submission, idempotencyKey }, index) => {
    try {
      const deposit = assertDeposit(submission, now);
      assertKioskMatches(caller, deposit.kioskId);
      const checkIfNew = () => assertInOfflineWindow(deposit, now, offlineMaxDays);
      accepted.push({ index, item: { deposit, idempotencyKey, checkIfNew } });
    } catch (error) {
      settled[index] = { error };
    }
  });
  const awarded = await awardTransactions(
    accepted.map(({ item }) => item),
    { apiKeyId: caller.keyId, oldestAcceptedDay: oldestAcceptedDay(now, offlineMaxDays) },
  );
  accepted.forEach(({ index }, n) => (settled[index] = awarded[n]));
  return settled;
}

/** One deposit alone: its outcome, or its error thrown. */
export async function acceptDeposit(request: DepositRequest, caller: KioskCaller): Promise<AwardOutcome> {
  const [settled] = await acceptDeposits([request], caller);
  if ('error' in settled) throw settled.error;
  return settled.outcome;
}
