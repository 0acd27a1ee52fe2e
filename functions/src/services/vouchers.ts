/**
 * Partners checking and using vouchers (§12). A code is found by one read of its
 * lookup document (data/redemptions.ts' voucherCodes), never by a query; a voucher
 * of another partner's reward is as unknown as a code that does not exist; and a key
 * that guesses is stopped: more than GUESS_LIMIT unknown codes in GUESS_WINDOW_MS
 * and every voucher request of that key is 429 until the window has passed.
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { isFull, reserve, type Bucket } from '../data/rateLimits';
import { redemptionViewOf, redemptionsCollection, voucherCodesCollection, voucherStatusOf } from '../data/redemptions';
import { newVoucherUse, voucherUsesCollection } from '../data/voucherUses';
import type { PartnerCaller } from '../data/partners';
import { stageWebhookEvent } from '../data/webhookEvents';
import { normaliseVoucherCode } from '../domain/voucherCode';
import { ApiError, type ErrorCode } from '../errors';
import type { VoucherView } from '../model/partnerViews';
import { logInfo } from '../log';
import type { RedemptionStatus } from '../model/vocabulary';

export const GUESS_LIMIT = 20;
export const GUESS_WINDOW_MS = 10 * 60_000;

/** The unknown codes a key sent lately (its `rateLimits` bucket). */
export const guessesOf = (caller: PartnerCaller): Bucket => ({
  scope: 'voucher-guesses',
  key: caller.keyId,
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

async function redemptionOfCode(code: string): Promise<DocumentSnapshot | undefined> {
  const entry = await voucherCodesCollection().doc(code).get();
  if (!entry.exists) return undefined;
  return redemptionsCollection().doc(entry.get('redemptionId')).get();
}

/** A voucher of no partner in particular, or of this one. */
const honouredBy = (caller: PartnerCaller, redemption: DocumentSnapshot | undefined): boolean => {
  const partnerId: unknown = redemption?.get('partnerId') ?? null;
  return redemption?.exists === true && (partnerId === null || partnerId === caller.partnerId);
};

/**
 * The redemption behind a code the caller's partner honours; 404 `voucher-not-found`
 * for any other code (counted as a guess), 429 while the key has guessed too often.
 * The bucket is read with the code: a key being stopped learns nothing, not even of a
 * code that exists.
 */
async function findVoucher(caller: PartnerCaller, written: string): Promise<DocumentSnapshot> {
  const code = normaliseVoucherCode(written);
  const bucket = guessesOf(caller);
  const [full, redemption] = await Promise.all([isFull(bucket), code ? redemptionOfCode(code) : undefined]);
  if (full) throw guessing(full.retryAfterSeconds);
  if (redemption && honouredBy(caller, redemption)) return redemption;
  const reservation = await reserve([bucket]);
  if (!reservation.reserved) throw guessing(reservation.retryAfterSeconds);
  throw new ApiError('voucher-not-found', 'No voucher has this code');
}

export async function checkVoucher(caller: PartnerCaller, written: string): Promise<VoucherView> {
  return voucherView((await findVoucher(caller, written)).data()!, new Date());
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
 * A use as recorded on the redemption: which partner's key, under which
 * Idempotency-Key (or null), and the id of the call that made it.
 */
interface RecordedUse {
  partnerId: string;
  keyId: string;
  idempotencyKey: string | null;
  useId: string;
}

/**
 * Where voucher `data` stands for a use by `caller` under `idempotencyKey`: usable,
 * or answered from the record (this call's own use whose answer was lost; an earlier
 * use of this partner under the same key, a replay), or refused with the voucher as
 * it is (409). A retry is answered from the record before anything else is checked.
 */
function judgeUse(
  data: DocumentData,
  now: Date,
  caller: PartnerCaller,
  idempotencyKey: string | undefined,
  useId: string,
): VoucherUse | 'usable' {
  const use = data.use as RecordedUse | undefined;
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
  const early = judgeUse(found.data()!, new Date(), caller, idempotencyKey, useId);
  if (early !== 'usable') return early;

  const outcome = await runTransaction<VoucherUse>(async (tx) => {
    const data = (await tx.get(found.ref)).data()!;
    const now = new Date();
    const judged = judgeUse(data, now, caller, idempotencyKey, useId);
    if (judged !== 'usable') return judged;
    const usedAt = Timestamp.fromDate(now);
    const use: RecordedUse = { ...caller, idempotencyKey: idempotencyKey ?? null, useId };
    const usage = { status: 'used' satisfies RedemptionStatus, usedAt, use };
    tx.update(found.ref, usage);
    tx.create(
      voucherUsesCollection().doc(found.id),
      newVoucherUse({ userId: data.userId, rewardName: data.rewardName, ...caller, usedAt }),
    );
    // Its webhook event (§13), with the use, once: the transaction commits the use once.
    stageWebhookEvent(tx, {
      type: 'redemption.used',
      subjectId: found.id,
      at: now,
      data: { ...redemptionViewOf(found.id, { ...data, ...usage }, now), userId: data.userId },
    });
    return { voucher: voucherView({ ...data, ...usage }, now), replayed: false };
  });
  if (!outcome.replayed) {
    logInfo('voucher_used', { redemptionId: found.id, partnerId: caller.partnerId, keyId: caller.keyId });
  }
  return outcome;
}
