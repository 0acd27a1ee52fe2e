import { offlineWindowDays } from '../config';
import { assertDeposit, oldestAcceptedDay, type DepositSubmission } from '../domain/deposit';
import { awardTransaction, type AwardOutcome } from '../services/awardTransaction';
import { assertKioskMatches, type KioskCaller } from './auth';

/**
 * One deposit from a kiosk, alone (POST /kiosk/transaction) or in a batch: the
 * checks past its schema, in the order a single submission meets them, then the award.
 */
export async function acceptDeposit(
  submission: DepositSubmission,
  caller: KioskCaller,
  idempotencyKey: string | undefined,
): Promise<AwardOutcome> {
  const now = new Date();
  const offlineMaxDays = offlineWindowDays();
  const deposit = assertDeposit(submission, now, offlineMaxDays);
  assertKioskMatches(caller, deposit.kioskId);
  return awardTransaction(deposit, {
    apiKeyId: caller.keyId,
    idempotencyKey,
    oldestAcceptedDay: oldestAcceptedDay(now, offlineMaxDays),
  });
}
