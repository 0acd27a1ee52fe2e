/**
 * Partners checking and using vouchers (§12). A code is found by one read of its
 * lookup document (data/redemptions.ts' voucherCodes), never by a query; a voucher
 * of another partner's reward is as unknown as a code that does not exist; and a
 * partner that guesses is stopped: more than GUESS_LIMIT unknown codes in
 * GUESS_WINDOW_MS, by all its keys together, and every voucher request of the partner
 * is 429 until the window has passed.
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type DocumentData, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { lookUpCounted, type Bucket } from '../data/rateLimits';
import { redemptionViewOf, redemptionsCollection, voucherCodesCollection, voucherStatusOf } from '../data/redemptions';
import type { RedemptionStatus } from '../model/vocabulary';
import { newVoucherUse, voucherUsesCollection, type NewVoucherUse } from '../data/voucherUses';
import type { PartnerCaller } from '../data/partners';
import { stageRedemptionEvent } from '../data/webhookEvents';
import { normaliseVoucherCode } from '../domain/voucherCode';
import { ApiError, type ErrorCode } from '../errors';
import type { VoucherView } from '../model/partnerViews';
import { logInfo } from '../log';

export const GUESS_LIMIT = 20;
export const GUESS_WINDOW_MS = 10 * 60_000;

/** The unknown codes a partner's keys sent lately (the partner's `rateLimits` bucket). */
export const guessesOf = (caller: PartnerCaller): Bucket => ({
  scope: 'voucher-guesses',
  key: caller.partnerId,
  limit: GUESS_LIMIT,
  windowMs: GUESS_WINDOW_MS,
});

const guessing = (retryAfterSeconds: number) =>
  new ApiError('rate-limited', `Too many unknown voucher codes; try again in ${retryAfterSeconds} seconds`, {
    retryAfterSeconds,
  });

/** A voucher as a partner sees it: what it is for and where it stands, nothing about the user. */
export const voucherView = (data: DocumentData, now: Date): VoucherView => ({
  code: data.code,
  rewardId: data.rewardId,
  rewardName: data.rewardName,
  status: voucherStatusOf(data, now),
  expiresAt: data.expiresAt instanceof Timestamp ? data.expiresAt.toDate().toISOString() : null,
  usedAt: data.usedAt instanceof Timestamp ? data.usedAt.toDate().toISOString() : null,
});

/** A voucher: its redemption and its use (data/voucherUses.ts; none while unused), read together. */
interface FoundVoucher {
  redemption: DocumentSnapshot;
  use: DocumentSnapshot;
}

const readVoucher = async (tx: Transaction, redemptionId: string): Promise<FoundVoucher> => {
  const [redemption, use] = await tx.getAll(
    redemptionsCollection().doc(redemptionId),
    voucherUsesCollection().doc(redemptionId),
  );
  return { redemption, use };
};

async function voucherOfCode(tx: Transaction, code: string): Promise<FoundVoucher | undefined> {
  const entry = await tx.get(voucherCodesCollection().doc(code));
  return entry.exists ? readVoucher(tx, entry.get('redemptionId')) : undefined;
}

/** A voucher of no partner in particular, or of this one. */
const honouredBy = (caller: PartnerCaller, { redemption }: FoundVoucher): boolean => {
  const partnerId: unknown = redemption.get('partnerId') ?? null;
  return redemption.exists && (partnerId === null || partnerId === caller.partnerId);
};

/**
 * The redemption behind a code the caller's partner honours; 404 `voucher-not-found`
 * for any other code (counted as a guess), 429 while the partner has guessed too often.
 * The code is looked up under the partner's count, in one transaction with it
 * (lookUpCounted): requests at once cannot look up more codes than the limit, and a
 * partner being stopped learns nothing, not even of a code that exists. A code found
 * honoured counts for nothing and writes nothing: only guesses use up the allowance.
 */
async function findVoucher(caller: PartnerCaller, written: string): Promise<FoundVoucher> {
  const code = normaliseVoucherCode(written);
  const lookup = await lookUpCounted(guessesOf(caller), async (tx) => {
    const voucher = code ? await voucherOfCode(tx, code) : undefined;
    return voucher && honouredBy(caller, voucher) ? voucher : undefined;
  });
  if (lookup.refused) throw guessing(lookup.retryAfterSeconds);
  if (!lookup.found) throw new ApiError('voucher-not-found', 'No voucher has this code');
  return lookup.found;
}

export async function checkVoucher(caller: PartnerCaller, written: string): Promise<VoucherView> {
  return voucherView((await findVoucher(caller, written)).redemption.data()!, new Date());
}

export interface VoucherUse {
  voucher: VoucherView;
  replayed: boolean;
}

const REFUSALS: Record<Exclude<ReturnType<typeof voucherStatusOf>, 'issued'>, [ErrorCode, string]> = {
  used: ['voucher-used', 'This voucher was used'],
  expired: ['voucher-expired', 'This voucher has expired'],
  cancelled: ['voucher-cancelled', 'This voucher was cancelled'],
};

/**
 * Where voucher `data` stands for a use by `caller` under `idempotencyKey`: usable,
 * or answered from the use's record, `recorded` (data/voucherUses.ts: this call's
 * own use whose answer was lost; an earlier use of this partner under the same key,
 * a replay), or refused with the voucher as it is (409). A retry is answered from
 * the record before anything else is checked.
 */
function judgeUse(
  data: DocumentData,
  recorded: DocumentSnapshot,
  now: Date,
  caller: PartnerCaller,
  idempotencyKey: string | undefined,
  useId: string,
): VoucherUse | 'usable' {
  const use = recorded.data() as NewVoucherUse | undefined;
  if (data.status === ('used' satisfies RedemptionStatus) && use) {
    if (use.useId === useId) return { voucher: voucherView(data, now), replayed: false };
    const sameKey = idempotencyKey !== undefined && use.idempotencyKey === idempotencyKey;
    if (sameKey && use.partnerId === caller.partnerId) return { voucher: voucherView(data, now), replayed: true };
  }
  const status = voucherStatusOf(data, now);
  if (status === 'issued') return 'usable';
  const [code, message] = REFUSALS[status];
  const voucher = voucherView(data, now);
  throw new ApiError(code, voucher.usedAt ? `${message} at ${voucher.usedAt}` : message, { fields: { voucher } });
}

/**
 * Uses the voucher, exactly once under any concurrency: the status is read and
 * changed in one transaction, so of uses at once one commits and the others find it
 * used (409, or the replay of the same Idempotency-Key). The use document created
 * with it (data/voucherUses.ts) is what the user's notification and push follow.
 */
export async function useVoucher(
  caller: PartnerCaller,
  written: string,
  idempotencyKey: string | undefined,
): Promise<VoucherUse> {
  const found = await findVoucher(caller, written);
  const useId = randomUUID();
  // Refused (or replayed) before any lock is taken, as most late uses are.
  const early = judgeUse(found.redemption.data()!, found.use, new Date(), caller, idempotencyKey, useId);
  if (early !== 'usable') return early;

  const outcome = await runTransaction<VoucherUse>(async (tx) => {
    const fresh = await readVoucher(tx, found.redemption.id);
    const data = fresh.redemption.data()!;
    const now = new Date();
    const judged = judgeUse(data, fresh.use, now, caller, idempotencyKey, useId);
    if (judged !== 'usable') return judged;
    const usedAt = Timestamp.fromDate(now);
    // The redemption, which its user reads, says only that and when; who used it is in the use's document.
    const usage = { status: 'used' satisfies RedemptionStatus, usedAt };
    tx.update(fresh.redemption.ref, usage);
    const use = { ...caller, idempotencyKey: idempotencyKey ?? null, useId, usedAt };
    tx.create(fresh.use.ref, newVoucherUse({ userId: data.userId, rewardName: data.rewardName, ...use }));
    // Its webhook event (§13), with the use, once: the transaction commits the use once.
    const redemption = redemptionViewOf(fresh.redemption.id, { ...data, ...usage }, now);
    stageRedemptionEvent(
      tx,
      'redemption.used',
      redemption,
      { userId: data.userId, partnerId: data.partnerId ?? null },
      now,
    );
    return { voucher: voucherView({ ...data, ...usage }, now), replayed: false };
  });
  if (!outcome.replayed) {
    logInfo('voucher_used', { redemptionId: found.redemption.id, partnerId: caller.partnerId, keyId: caller.keyId });
  }
  return outcome;
}
