import { randomUUID } from 'node:crypto';
import { DocumentSnapshot } from 'firebase-admin/firestore';
import { commitOnFreshReads, db } from '../adapters/firestore';
import { ledgerCollection, ledgerEntryView, newLedgerEntry, stagedEntryTime } from '../data/ledger';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { newRequestRecord, requestRecordsCollection } from '../data/requestRecords';
import {
  pointsModel,
  toUserView,
  userFromSnapshot,
  usersCollection,
  type UserRecord,
  type UserView,
} from '../data/users';
import { stageWebhookEvent } from '../data/webhookEvents';
import { changePoints, monthOf } from '../domain/pointsExpiry';
import { adjustBalances } from '../domain/adjustment';
import { expiryRuleOf, utcDay } from '../domain/rewards';
import { keyReused, keyedAdjustmentId, requestFingerprint } from '../domain/idempotency';
import { notFound } from '../errors';
import { logInfo } from '../log';
import type { AdjustmentView } from '../model/pointsViews';
import { expireEntryRef, stageDueExpiry } from './pointsExpiry';

export interface AdjustmentRequest {
  /** Signed, non-zero: added to both balances. */
  points: number;
  reason: string;
  /** Who adjusts: an admin's uid, or `cli:<operator>`. */
  by: string;
  idempotencyKey?: string;
}

/** An adjustment as the API shows it; its id is its ledger entry's. */
export type { AdjustmentView };

export interface AdjustmentOutcome {
  adjustment: AdjustmentView;
  user: UserView;
  /** The stored adjustment of an earlier request with this key; nothing was applied now. */
  replayed: boolean;
}

/**
 * Changes both of a user's balances by `points` and records why and by whom, in one
 * atomic commit: the new balances and rank, and the `adjust` ledger entry, which is
 * the adjustment's only record (adjustment id = entry id). The commit is guarded by a
 * precondition on the user document as read, as an award's and a redemption's are:
 * concurrent changes to one user never pass the check on a balance another commit
 * has already spent (the loser reads again), and no lock is held in between.
 *
 * With an idempotency key the entry's id derives from user and key, so a key applies
 * at most once, however late it is sent again: a repeat with the same body is
 * answered with the stored adjustment (and the user as they are now), another body
 * is 422. Without a key the id is random, chosen once per call. A commit whose answer
 * was lost is found on the fresh reads by its entry and its request record's
 * `submissionId` (data/requestRecords.ts: off the entry, which the user reads), and
 * answered as this call's own.
 */
export async function adjustBalance(userId: string, request: AdjustmentRequest): Promise<AdjustmentOutcome> {
  const { points, reason, by, idempotencyKey } = request;
  const fingerprint = requestFingerprint({ points, reason });
  const submissionId = randomUUID();
  const userRef = usersCollection().doc(userId);
  const entryRef = idempotencyKey
    ? ledgerCollection().doc(keyedAdjustmentId(userId, idempotencyKey))
    : ledgerCollection().doc();
  const recordRef = requestRecordsCollection().doc(entryRef.id);
  // Read once per call: the thresholds change rarely, users often.
  const config = await loadRewardsConfig();

  /** The answer for the entry recorded under this id: this call's own, or an earlier request's. */
  const answerFor = (entrySnap: DocumentSnapshot, record: DocumentSnapshot, user: UserRecord): AdjustmentOutcome => {
    const replayed = record.get('submissionId') !== submissionId;
    if (replayed && record.get('requestFingerprint') !== fingerprint) throw keyReused();
    const { id, balanceAfter } = ledgerEntryView(entrySnap);
    return { adjustment: { id, points, reason, balanceAfter }, user: toUserView(user, config), replayed };
  };

  const outcome = await commitOnFreshReads<AdjustmentOutcome>(async (batch) => {
    const today = utcDay(new Date());
    const [userSnap, entrySnap, recordSnap, expireSnap] = await db().getAll(
      userRef,
      entryRef,
      recordRef,
      expireEntryRef(userId, today),
    );
    const found = userFromSnapshot(userSnap);
    if (!found) throw notFound(`User ${userId} not found`);
    if (entrySnap.exists) return { result: answerFor(entrySnap, recordSnap, found), commit: false };
    // Taking points writes off those past their date first, in this commit: they are never spent (contract
    // Part four). The adjustment's entry then follows the expiry's in the history.
    const expiredAt = stagedEntryTime(userSnap.updateTime);
    const due =
      points < 0
        ? stageDueExpiry(batch, found, expireSnap, today, expiryRuleOf(config), expiredAt)
        : { user: found, lowered: 0 };
    const user = due.user;
    const after = adjustBalances(config, user, points);
    // Points added count from this month; points taken are the ones that expire soonest.
    const pointsByMonth = changePoints(user.pointsByMonth, points, monthOf(new Date()));
    batch.create(
      entryRef,
      newLedgerEntry({
        userId,
        kind: 'adjust',
        points,
        balanceAfter: after.currentPoints,
        reason,
        by,
        ...(due.lowered > 0 && { createdAt: stagedEntryTime(expiredAt) }),
      }),
    );
    batch.create(
      recordRef,
      newRequestRecord({ submissionId, requestFingerprint: idempotencyKey !== undefined ? fingerprint : null }),
    );
    batch.update(
      userRef,
      {
        currentPoints: after.currentPoints,
        totalPoints: after.totalPoints,
        rank: after.rank,
        ...pointsModel(pointsByMonth),
      },
      { lastUpdateTime: userSnap.updateTime! },
    );
    const adjusted = { ...user, currentPoints: after.currentPoints, totalPoints: after.totalPoints, pointsByMonth };
    const adjustment = { id: entryRef.id, points, reason, balanceAfter: after.currentPoints };
    stageWebhookEvent(batch, {
      type: 'points.adjusted',
      subjectId: entryRef.id,
      at: new Date(),
      data: { ...adjustment, userId },
    });
    return {
      result: {
        adjustment,
        user: toUserView(adjusted, config),
        replayed: false,
      },
      commit: true,
    };
  });

  logInfo(outcome.replayed ? 'adjustment_replayed' : 'balance_adjusted', {
    entryId: outcome.adjustment.id,
    userId,
    points,
    balanceAfter: outcome.adjustment.balanceAfter,
    by,
  });
  return outcome;
}
