import { Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';
import { voucherExpiry } from '../domain/redemption';
import type { RewardRecord } from './rewards';
import { effectsPending } from './pendingEffects';
import { newestFirstPage } from './userPages';
import type { RedemptionView } from '../model/pointsViews';
import type { RedemptionStatus, VoucherStatus } from '../model/vocabulary';

export const redemptionsCollection = () => db().collection('redemptions');

/**
 * `voucherCodes/{code}`: which redemption a voucher code belongs to, written with the
 * redemption, so that one read finds a code (§12), never a query.
 */
export const voucherCodesCollection = () => db().collection('voucherCodes');

/** A voucherCodes/{code} document: the redemption behind the code. */
export const newVoucherCodeEntry = (redemptionId: string): DocumentData => ({ redemptionId });

/**
 * `issued`, `used` or `cancelled` as stored; `issued` past `expiresAt` is `expired`.
 * A redemption stored before vouchers had a life has no `expiresAt`: it never expires.
 */
export function voucherStatusOf(data: DocumentData, now: Date): VoucherStatus {
  const expiresAt: unknown = data.expiresAt;
  const expired = expiresAt instanceof Timestamp && expiresAt.toMillis() <= now.getTime();
  return data.status === 'issued' && expired ? 'expired' : data.status;
}

/**
 * The id of the redemption a user's Idempotency-Key names, forever: a second request
 * with the key finds it, however late. Keys are scoped per user; the pair is encoded
 * as a JSON array, which no two pairs share, led by the kind of request, so that it is
 * never the id a transaction's key gives (the notifications of both share one folder).
 */
export const keyedRedemptionId = (userId: string, key: string): string =>
  sha256Hex(JSON.stringify(['redeem', userId, key]));

/** What a redemption records when it is made; the trigger adds `effects`, a cancel its fields. */
export interface NewRedemption {
  userId: string;
  reward: RewardRecord;
  /** The voucher code; null for a donation. */
  code: string | null;
  /** The user's `currentPoints` after it. */
  balanceAfter: number;
  idempotencyKey: string;
  /** When it was issued: its ledger entry's time (see stagedEntryTime), after the user's every earlier change. */
  createdAt: Timestamp;
}

/**
 * What a voucher adds (§12): the partner who honours it (the reward's when it was
 * issued) and until when; never used yet. A donation has neither.
 */
const voucherLife = (reward: RewardRecord, createdAt: Timestamp): DocumentData =>
  reward.kind === 'voucher'
    ? {
        partnerId: reward.partnerId,
        expiresAt: Timestamp.fromDate(voucherExpiry(createdAt.toDate(), reward.validDays)),
        usedAt: null,
      }
    : { partnerId: null, expiresAt: null, usedAt: null };

/** A redemptions/{id} document as first stored; the one place one is written out. */
export const newRedemption = ({ reward, ...redemption }: NewRedemption): DocumentData => ({
  ...redemption,
  rewardId: reward.id,
  rewardName: reward.name,
  kind: reward.kind,
  cost: reward.cost,
  status: 'issued' satisfies RedemptionStatus,
  // A cancel gives a unit back only if one was taken: the stock may be counted from later on.
  stockTaken: reward.stock !== null,
  ...voucherLife(reward, redemption.createdAt),
  ...effectsPending,
});

export interface Cancellation {
  reason: string;
  /** The admin's uid, or the CLI command. */
  by: string;
  /** Chosen once per cancel call (see cancelRedemption). */
  cancelId: string;
  at: Timestamp;
  /** The user's `currentPoints` after the refund. */
  refundBalanceAfter: number;
}

/** The fields a cancel adds to a redemption, once. */
export const cancellation = ({ reason, by, cancelId, at, refundBalanceAfter }: Cancellation): DocumentData => ({
  status: 'cancelled' satisfies RedemptionStatus,
  cancelledAt: at,
  cancelReason: reason,
  cancelledBy: by,
  cancelId,
  refundBalanceAfter,
});

/** A redemption as its user (and an operator) sees it. */
export type { RedemptionView };

const iso = (value: unknown): string | undefined =>
  value instanceof Timestamp ? value.toDate().toISOString() : undefined;

/** The redemption as stored, with `changes` (a cancel about to commit) applied. */
export const redemptionView = (snapshot: DocumentSnapshot, changes: DocumentData = {}): RedemptionView =>
  redemptionViewOf(snapshot.id, { ...snapshot.data(), ...changes });

/**
 * The view of redemption `id` whose fields are `data`: one stored, or one about to be.
 * Fields a redemption stored before vouchers had a life lacks read as null: no expiry, not used.
 */
export function redemptionViewOf(id: string, data: DocumentData, now = new Date()): RedemptionView {
  const cancelledAt = iso(data.cancelledAt);
  return {
    id,
    rewardId: data.rewardId,
    rewardName: data.rewardName,
    kind: data.kind,
    cost: data.cost,
    code: data.code ?? null,
    status: voucherStatusOf(data, now),
    createdAt: iso(data.createdAt) ?? new Date(0).toISOString(),
    expiresAt: iso(data.expiresAt) ?? null,
    usedAt: iso(data.usedAt) ?? null,
    ...(cancelledAt && { cancelledAt }),
    ...(typeof data.cancelReason === 'string' && { cancelReason: data.cancelReason }),
  };
}

/** One page of a user's redemptions, newest first (see newestFirstPage). */
export const redemptionsPage = (userId: string, limit: number, cursor: string | undefined) =>
  newestFirstPage(redemptionsCollection(), userId, { limit, cursor }, redemptionView);
