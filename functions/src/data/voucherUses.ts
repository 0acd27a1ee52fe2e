/**
 * `voucherUses/{redemptionId}`: a voucher's use (§12), created in the transaction that
 * marks the redemption used, once (its id is the redemption's). Its creation is what
 * the user's notification and push follow (services/voucherUseEffects.ts), claimed
 * in its `effects` and swept while `effectsPending`. It is also the use's record, which
 * only the service reads (the partner's key, its Idempotency-Key, the call's id): the
 * redemption, which its user reads, keeps only `status: "used"` and `usedAt`.
 */
import type { DocumentData, Timestamp } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { effectsPending } from './pendingEffects';

export const voucherUsesCollection = () => db().collection('voucherUses');

export interface NewVoucherUse {
  userId: string;
  rewardName: string;
  /** The partner whose key used it, and that key. */
  partnerId: string;
  keyId: string;
  /** The partner's Idempotency-Key, or null: a later call with it is a replay. */
  idempotencyKey: string | null;
  /** Chosen once per call: a call that finds its own use (its answer lost) is not a replay. */
  useId: string;
  usedAt: Timestamp;
}

export const newVoucherUse = (use: NewVoucherUse): DocumentData => ({ ...use, ...effectsPending });
