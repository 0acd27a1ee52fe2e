/**
 * Spending points on a reward, and an operator's cancelling of it: each one atomic
 * commit of the redemption, the user's balance, the reward's stock and the ledger
 * entry that explains the change. Only `currentPoints` moves: the rank follows
 * `totalPoints`, what was ever earned.
 */
import { randomUUID } from 'node:crypto';
import { Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { commitOnFreshReads, db, runTransaction } from '../adapters/firestore';
import { assertDocumentId } from '../domain/ids';
import { ledgerCollection, newLedgerEntry, stagedEntryTime } from '../data/ledger';
import {
  cancellation,
  keyedRedemptionId,
  newRedemption,
  redemptionView,
  redemptionViewOf,
  newVoucherCodeEntry,
  redemptionsCollection,
  voucherCodesCollection,
  type RedemptionView,
} from '../data/redemptions';
import { newRequestRecord, requestRecordsCollection } from '../data/requestRecords';
import { rewardFromSnapshot, rewardsCollection } from '../data/rewards';
import { rewardsConfigFromSnapshot, rewardsConfigRef } from '../data/rewardsConfig';
import { ProfileNotFound, pointsModel, userFromSnapshot, usersCollection } from '../data/users';
import { accountSuspended } from './suspension';
import { changePoints, monthOf } from '../domain/pointsExpiry';
import { stageRedemptionEvent } from '../data/webhookEvents';
import { keyReused, requestFingerprint } from '../domain/idempotency';
import { assertRedeemable } from '../domain/redemption';
import { expiryRuleOf, utcDay } from '../domain/rewards';
import { newVoucherCode } from '../domain/voucherCode';
import { conflict, notFound } from '../errors';
import { logInfo } from '../log';
import { expireEntryRef, stageDueExpiry } from './pointsExpiry';

export interface RedemptionOutcome {
  redemption: RedemptionView;
  /** The user's `currentPoints` right after the redemption (or its cancelling). */
  newBalance: number;
  replayed: boolean;
}

/** The ledger entries of a redemption, under ids derived from it: a redemption is spent and refunded once. */
const redeemEntryId = (redemptionId: string) => `redeem-${redemptionId}`;
const refundEntryId = (redemptionId: string) => `refund-${redemptionId}`;

/**
 * Redeems `rewardId` for `userId` under the user's `idempotencyKey`. The redemption's
 * id is derived from user and key, and every request with the key creates that one
 * document: a later one finds it and is answered with it (422 when its body differs);
 * a concurrent twin loses the create and then finds it. The commit is guarded by
 * preconditions on the user and on the reward (whether or not its stock is counted),
 * so under any concurrency a balance and a stock never go below 0, and a redemption
 * is never made of a reward as it was before a change (deactivated, dearer).
 */
export async function redeemReward(
  userId: string,
  rewardId: string,
  idempotencyKey: string,
): Promise<RedemptionOutcome> {
  const fingerprint = requestFingerprint({ rewardId });
  const submissionId = randomUUID();
  const userRef = usersCollection().doc(userId);
  const rewardRef = rewardsCollection().doc(assertDocumentId(rewardId, 'rewardId'));
  const redemptionRef = redemptionsCollection().doc(keyedRedemptionId(userId, idempotencyKey));
  // Which request made it, off the redemption, which its user reads (data/requestRecords.ts).
  const recordRef = requestRecordsCollection().doc(redemptionRef.id);

  /** The answer for the redemption recorded under this key: this request's own, or an earlier one's. */
  const answerFor = (recorded: DocumentSnapshot, record: DocumentSnapshot): RedemptionOutcome => {
    const replayed = record.get('submissionId') !== submissionId;
    if (replayed && record.get('requestFingerprint') !== fingerprint) throw keyReused();
    return { redemption: redemptionView(recorded), newBalance: recorded.get('balanceAfter'), replayed };
  };

  const result = await commitOnFreshReads<RedemptionOutcome>(async (batch) => {
    const today = utcDay(new Date());
    const [userSnap, rewardSnap, recordedSnap, recordSnap, configSnap, expireSnap] = await db().getAll(
      userRef,
      rewardRef,
      redemptionRef,
      recordRef,
      rewardsConfigRef(),
      expireEntryRef(userId, today),
    );
    if (recordedSnap.exists) return { result: answerFor(recordedSnap, recordSnap), commit: false };
    const found = userFromSnapshot(userSnap);
    if (!found) throw new ProfileNotFound(userId);
    if (found.suspended) throw accountSuspended(userId);
    const reward = rewardFromSnapshot(rewardSnap);
    if (!reward) throw notFound(`Reward ${rewardId} not found`);
    // Points past their date are written off first, in this commit, and never spent (contract Part four).
    const expiredAt = stagedEntryTime(userSnap.updateTime);
    const rule = expiryRuleOf(rewardsConfigFromSnapshot(configSnap));
    const { user, lowered } = stageDueExpiry(batch, found, expireSnap, today, rule, expiredAt);
    assertRedeemable(reward, user.currentPoints);

    const balanceAfter = user.currentPoints - reward.cost;
    // The redemption and its entry share one time, which the answer carries without a read after the commit;
    // after the expiry's entry where this commit stages one.
    const createdAt = lowered > 0 ? stagedEntryTime(expiredAt) : expiredAt;
    const redemption = newRedemption({
      userId,
      reward,
      code: reward.kind === 'voucher' ? newVoucherCode() : null,
      balanceAfter,
      idempotencyKey,
      createdAt,
    });
    batch.create(redemptionRef, redemption);
    batch.create(recordRef, newRequestRecord({ submissionId, requestFingerprint: fingerprint }));
    // A code found by one read (§12). A code already taken (60 random bits: beyond chance) fails the create,
    // and the commit is staged again, with a new code.
    if (redemption.code !== null) {
      batch.create(voucherCodesCollection().doc(redemption.code), newVoucherCodeEntry(redemptionRef.id));
    }
    batch.create(
      ledgerCollection().doc(redeemEntryId(redemptionRef.id)),
      newLedgerEntry({
        userId,
        kind: 'redeem',
        points: -reward.cost,
        balanceAfter,
        redemption: { id: redemptionRef.id, rewardId, rewardName: reward.name },
        createdAt,
      }),
    );
    // The preconditions make concurrent spends safe: whatever changed since the read fails the whole commit.
    // The reward is guarded whatever its stock, so a deactivation or a cost change in between is never
    // overtaken; an unlimited stock is written as it is (null), which changes nothing else.
    batch.update(
      userRef,
      // Spent from the points that expire soonest.
      {
        currentPoints: balanceAfter,
        ...pointsModel(changePoints(user.pointsByMonth, -reward.cost, monthOf(new Date()))),
      },
      { lastUpdateTime: userSnap.updateTime! },
    );
    const stockAfter = reward.stock === null ? null : reward.stock - 1;
    batch.update(rewardRef, { stock: stockAfter }, { lastUpdateTime: rewardSnap.updateTime! });
    const issued = { redemption: redemptionViewOf(redemptionRef.id, redemption), newBalance: balanceAfter };
    stageRedemptionEvent(
      batch,
      'redemption.issued',
      issued.redemption,
      { userId, partnerId: null },
      createdAt.toDate(),
    );
    return { result: { ...issued, replayed: false }, commit: true };
  });
  logInfo(result.replayed ? 'redemption_replayed' : 'redemption_issued', {
    redemptionId: result.redemption.id,
    userId,
    rewardId,
    cost: result.redemption.cost,
  });
  return result;
}

/**
 * Cancels a redemption once: the cost back to the user (a `refund` entry), one unit
 * back to the reward's stock when the redemption took one and the stock is still
 * counted, and the redemption marked cancelled with why and by whom, in one
 * transaction. A second cancel is 409. The id of this
 * call, stored with the cancel, tells its own commit whose answer was lost (the body
 * runs again) from an earlier cancel.
 */
export async function cancelRedemption(
  redemptionId: string,
  reason: string,
  by: string,
): Promise<Omit<RedemptionOutcome, 'replayed'>> {
  const redemptionRef = redemptionsCollection().doc(redemptionId);
  const cancelId = randomUUID();
  const at = Timestamp.now();
  const refuse = (snapshot: DocumentSnapshot) => {
    if (!snapshot.exists) throw notFound(`Redemption ${redemptionId} not found`);
    if (snapshot.get('status') === 'cancelled' && snapshot.get('cancelId') !== cancelId) {
      throw conflict(`Redemption ${redemptionId} is already cancelled`, 'already-cancelled');
    }
    // A used voucher was honoured: its points are never given back (an expired one may be).
    if (snapshot.get('status') === 'used') {
      throw conflict(`Redemption ${redemptionId} is a voucher a partner has used; it is not refunded`, 'voucher-used');
    }
  };
  // Refused before any lock is taken: a transaction given up leaves its locks until they
  // expire (its rollback is not awaited), which would hold up the redemption's trigger.
  refuse(await redemptionRef.get());
  const outcome = await runTransaction(async (tx) => {
    const snapshot = await tx.get(redemptionRef);
    refuse(snapshot);
    if (snapshot.get('status') === 'cancelled') {
      return { redemption: redemptionView(snapshot), newBalance: snapshot.get('refundBalanceAfter') as number };
    }
    const { userId, rewardId, rewardName, cost } = snapshot.data()!;
    const userRef = usersCollection().doc(userId);
    const rewardRef = rewardsCollection().doc(assertDocumentId(rewardId, 'rewardId'));
    const [userSnap, rewardSnap] = await tx.getAll(userRef, rewardRef);
    const user = userFromSnapshot(userSnap);
    if (!user) throw notFound(`User ${userId} of redemption ${redemptionId} not found`);
    const reward = rewardFromSnapshot(rewardSnap);

    const newBalance = user.currentPoints + cost;
    // Refunded points are added anew: they count from the month of the refund.
    tx.update(userRef, {
      currentPoints: newBalance,
      ...pointsModel(changePoints(user.pointsByMonth, cost, monthOf(at.toDate()))),
    });
    if (snapshot.get('stockTaken') === true && reward && reward.stock !== null) {
      tx.update(rewardRef, { stock: reward.stock + 1 });
    }
    tx.create(
      ledgerCollection().doc(refundEntryId(redemptionId)),
      newLedgerEntry({
        userId,
        kind: 'refund',
        points: cost,
        balanceAfter: newBalance,
        redemption: { id: redemptionId, rewardId, rewardName },
        reason,
        by,
      }),
    );
    const cancelled = cancellation({ reason, by, cancelId, at, refundBalanceAfter: newBalance });
    tx.update(redemptionRef, cancelled);
    const redemption = redemptionView(snapshot, cancelled);
    const partnerId = (snapshot.get('partnerId') as string | null | undefined) ?? null;
    stageRedemptionEvent(tx, 'redemption.cancelled', redemption, { userId, partnerId }, at.toDate());
    return { redemption, newBalance };
  });
  logInfo('redemption_cancelled', { redemptionId, by, newBalance: outcome.newBalance });
  return outcome;
}
