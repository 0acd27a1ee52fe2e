/**
 * `voucherUses/{redemptionId}`: a voucher's use (§12), created in the transaction that
 * marks the redemption used, once (its id is the redemption's). Its creation is what
 * the user's notification and push follow (services/voucherUseEffects.ts), claimed
 * in its `effects` and swept while `effectsPending`.
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
  usedAt: Timestamp;
}

export const newVoucherUse = (use: NewVoucherUse): DocumentData => ({ ...use, ...effectsPending });
