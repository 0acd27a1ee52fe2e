import { randomUUID } from 'node:crypto';
import type { Transaction } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { ledgerCollection, ledgerEntryView, newLedgerEntry } from '../data/ledger';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { toUserView, userFromSnapshot, usersCollection, type UserView } from '../data/users';
import { adjustBalances } from '../domain/adjustment';
import { keyReused, keyedAdjustmentId, requestFingerprint } from '../domain/idempotency';
import { ApiError, notFound } from '../errors';
import { logInfo } from '../log';

export interface AdjustmentRequest {
  /** Signed, non-zero: added to both balances. */
  points: number;
  reason: string;
  /** Who adjusts: an admin's uid, or `cli:<operator>`. */
  by: string;
  idempotencyKey?: string;
}

/** An adjustment as the API shows it; its id is its ledger entry's. */
export interface AdjustmentView {
  id: string;
  points: number;
  reason: string;
  balanceAfter: number;
}

export interface AdjustmentOutcome {
  adjustment: AdjustmentView;
  user: UserView;
  /** The stored adjustment of an earlier request with this key; nothing was applied now. */
  replayed: boolean;
}

/**
 * Changes both of a user's balances by `points` and records why and by whom, in one
 * Firestore transaction: the user's read, the check that neither balance goes below
 * 0, the new balances and rank, and the `adjust` ledger entry, which is the
 * adjustment's only record (adjustment id = entry id). Concurrent adjustments and
 * awards to one user serialise on the user document, so a check never passes on a
 * balance that another commit has already spent.
 *
 * With an idempotency key the entry's id derives from user and key, so a key applies
 * at most once, however late it is sent again: a repeat with the same body is
 * answered with the stored adjustment (and the user as they are now), another body
 * is 422. Without a key the id is random, chosen once per call. A transaction body
 * that runs again after its own commit landed (a lost answer) finds its entry by the
 * call's `submissionId` and answers as the first run did.
 */
export async function adjustBalance(userId: string, request: AdjustmentRequest): Promise<AdjustmentOutcome> {
  const { points, reason, by, idempotencyKey } = request;
  const fingerprint = requestFingerprint({ points, reason });
  const submissionId = randomUUID();
  const userRef = usersCollection().doc(userId);
  const entryRef = idempotencyKey
    ? ledgerCollection().doc(keyedAdjustmentId(userId, idempotencyKey))
    : ledgerCollection().doc();
  // Read outside the lock, as an award does: the thresholds change rarely, users often.
  const config = await loadRewardsConfig();

  const stage = async (tx: Transaction): Promise<AdjustmentOutcome> => {
    const [userSnap, entrySnap] = await tx.getAll(userRef, entryRef);
    const user = userFromSnapshot(userSnap);
    if (!user) throw notFound(`User ${userId} not found`);
    if (entrySnap.exists) {
      const replayed = entrySnap.get('submissionId') !== submissionId;
      if (replayed && entrySnap.get('requestFingerprint') !== fingerprint) throw keyReused();
      const { id, balanceAfter } = ledgerEntryView(entrySnap);
      return { adjustment: { id, points, reason, balanceAfter }, user: toUserView(user, config), replayed };
    }
    const after = adjustBalances(config, user, points);
    tx.create(
      entryRef,
      newLedgerEntry({
        userId,
        kind: 'adjust',
        points,
        balanceAfter: after.currentPoints,
        reason,
        by,
        submissionId,
        ...(idempotencyKey !== undefined && { requestFingerprint: fingerprint }),
      }),
    );
    tx.update(userRef, { currentPoints: after.currentPoints, totalPoints: after.totalPoints, rank: after.rank });
    const adjusted = { ...user, currentPoints: after.currentPoints, totalPoints: after.totalPoints };
    return {
      adjustment: { id: entryRef.id, points, reason, balanceAfter: after.currentPoints },
      user: toUserView(adjusted, config),
      replayed: false,
    };
  };
  const outcome = await runTransaction(async (tx) => {
    try {
      return await stage(tx);
    } catch (error) {
      // A refusal ends the transaction by committing it, without writes: that releases
      // its locks before the answer. The SDK's rollback is only sent in the background,
      // and a process that exits at once (the CLI) would leave the user locked until
      // the server gives up on the transaction.
      if (error instanceof ApiError) return error;
      throw error;
    }
  });
  if (outcome instanceof ApiError) throw outcome;

  logInfo(outcome.replayed ? 'adjustment_replayed' : 'balance_adjusted', {
    entryId: outcome.adjustment.id,
    userId,
    points,
    balanceAfter: outcome.adjustment.balanceAfter,
    by,
  });
  return outcome;
}
