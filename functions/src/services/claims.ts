/**
 * Claiming an anonymous deposit (contract §18). A code is found by one read of its
 * lookup document (data/claims.ts' claimCodes), never by a query; and a user whose
 * claims guess is stopped as a partner guessing vouchers is (services/vouchers.ts):
 * more than GUESS_LIMIT unknown codes in GUESS_WINDOW_MS and every claim for that
 * user is 429 until the window has passed. The count is taken before the code is
 * looked up, in one transaction with it (lookUpCounted), so claims at once cannot
 * look up more than the limit.
 */
import { capWindowDays } from '../config';
import { claimCodeRef, claimedDepositOf, type ClaimedDeposit } from '../data/claims';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { loadRiskConfig } from '../data/riskConfig';
import { lookUpCounted, type Bucket } from '../data/rateLimits';
import { transactionsCollection } from '../data/transactions';
import { normaliseClaimCode } from '../domain/claimCode';
import { oldestAcceptedDay } from '../domain/deposit';
import type { RewardsConfig } from '../domain/rewards';
import type { RiskConfig } from '../domain/risk';
import { ApiError } from '../errors';
import { logInfo } from '../log';
import type { TransactionView } from '../model/views';
import type { AwardOutcome, PlannedAward, PlannedClaim } from './awardRecord';
import { planClaim } from './claimAward';
import { awardToUser, oneAtATimePerUser } from './deposits';
import { GUESS_LIMIT, GUESS_WINDOW_MS } from './vouchers';

/** The unknown claim codes sent for a user lately (their `rateLimits` bucket), whoever sent them. */
export const claimGuessesOf = (userId: string): Bucket => ({
  scope: 'claim-guesses',
  key: userId,
  limit: GUESS_LIMIT,
  windowMs: GUESS_WINDOW_MS,
});

const guessing = (retryAfterSeconds: number) =>
  new ApiError('rate-limited', `Too many unknown claim codes; try again in ${retryAfterSeconds} seconds`, {
    retryAfterSeconds,
  });

/**
 * The anonymous deposit behind a written code, or 404 `claim-not-found` (counted) / 429
 * while guessing. Its entry is read with the count, in one round trip: it never changes,
 * so claims of one code never lock each other.
 */
async function findClaimed(userId: string, written: string): Promise<{ code: string; claimed: ClaimedDeposit }> {
  const code = normaliseClaimCode(written);
  const lookup = await lookUpCounted(
    claimGuessesOf(userId),
    async (_tx, [entry]) => (entry ? claimedDepositOf(entry) : undefined),
    code ? [claimCodeRef(code)] : [],
  );
  if (lookup.refused) throw guessing(lookup.retryAfterSeconds);
  if (!code || !lookup.found) throw new ApiError('claim-not-found', 'No deposit has this claim code');
  return { code, claimed: lookup.found };
}

export interface ClaimOutcome {
  transaction: TransactionView;
  newBalance: number;
  /** The stored answer of an earlier claim with this Idempotency-Key; nothing was awarded now. */
  replayed: boolean;
}

/**
 * A claim (§18): the anonymous deposit `claimed` awarded to `userId` as their deposit
 * of when it happened, through the very path of a deposit's award (awardToUser): the
 * daily cap of its `occurredAt` day, the `earn` entry, `recycledCount`, the webhook
 * event, one commit at a time per user.
 */
async function awardClaim(
  userId: string,
  { transactionId, kioskId, plasticCount, metalCount, occurredAt }: ClaimedDeposit,
  claim: PlannedClaim,
  { config, limits }: { config: RewardsConfig; limits: RiskConfig },
): Promise<AwardOutcome> {
  const award: PlannedAward = {
    deposit: { kioskId, userId, plasticCount, metalCount, happenedAt: occurredAt },
    fingerprint: claim.fingerprint,
    transactionRef: transactionsCollection().doc(transactionId),
    claim,
  };
  // The key of the deposit's kiosk is the transaction's own: a claim records no kiosk key.
  const origin = { apiKeyId: '', oldestAcceptedDay: oldestAcceptedDay(new Date(), capWindowDays()) };
  const [settled] = await oneAtATimePerUser(userId, () =>
    awardToUser(userId, [award], {
      config,
      limits,
      kiosks: new Map(),
      clocks: new Map(),
      promotions: { current: [] },
      origin,
    }),
  );
  if ('error' in settled) throw settled.error;
  return settled.outcome;
}

/**
 * Claims the anonymous deposit of `written` for `userId`: awarded exactly once under
 * any concurrency (services/claimAward.ts), as the user's deposit of when it happened.
 */
export async function claimDeposit(
  userId: string,
  written: string,
  idempotencyKey: string | undefined,
): Promise<ClaimOutcome> {
  // The rewards config is read beside the lookup: a claim costs the lookup's round trips and the award's.
  const [{ code, claimed }, config, limits] = await Promise.all([
    findClaimed(userId, written),
    loadRewardsConfig(),
    loadRiskConfig(),
  ]);
  const claim = planClaim(claimed.transactionId, { userId, code, recorded: claimed.breakdown, idempotencyKey });
  const { result, replayed } = await awardClaim(userId, claimed, claim, { config, limits });
  logInfo(replayed ? 'claim_replayed' : 'deposit_claimed', {
    transactionId: result.transaction.id,
    userId,
    pointsEarned: result.transaction.pointsEarned,
  });
  return { transaction: result.transaction, newBalance: result.transaction.newBalance ?? 0, replayed };
}
