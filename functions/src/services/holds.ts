import { randomUUID } from 'node:crypto';
import type { WriteBatch } from 'firebase-admin/firestore';
import { commitOnFreshReads, db } from '../adapters/firestore';
import type { PushTransport } from '../adapters/push';
import {
  holdDecisionsCollection,
  holdView,
  holdsCollection,
  newHold,
  openHoldView,
  settledHold,
  stageHoldDecision,
} from '../data/holds';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { occurredAtOf, transactionsCollection, type TransactionView } from '../data/transactions';
import { pointsModel, userFromSnapshot, usersCollection } from '../data/users';
import { stageWebhookEvent } from '../data/webhookEvents';
import { holdDecisionNotification } from '../domain/messages';
import { changePoints, monthOf } from '../domain/pointsExpiry';
import { legacyBreakdown } from '../domain/promotions';
import { rankFor } from '../domain/rewards';
import { ApiError, notFound } from '../errors';
import { logInfo } from '../log';
import type { HoldView } from '../model/trustViews';
import type { HoldResolution } from '../model/trustVocabulary';
import { tellOnce, type Claim } from './notifyOnce';

/*
 * Held points (contract §17): a held deposit's review. The hold is written with its
 * transaction, in the award's commit (stageHold); an operator then releases it (the
 * `earn` entry is written then) or rejects it, exactly once: the commit is guarded by
 * the hold's version, and the decision's documents are created under the
 * transaction's id (a second release cannot land beside the first).
 */

/** Stages the hold of a deposit recorded `held` (its transaction staged beside it) and its `points.held` event. */
export function stageHold(batch: WriteBatch, transaction: TransactionView & { userId: string }): void {
  const now = new Date();
  const hold = {
    transactionId: transaction.id,
    userId: transaction.userId,
    kioskId: transaction.kioskId,
    points: transaction.pointsEarned,
    reasons: transaction.holdReasons,
    occurredAt: new Date(transaction.occurredAt),
    heldAt: now,
  };
  batch.create(holdsCollection().doc(transaction.id), newHold(hold));
  stageWebhookEvent(batch, { type: 'points.held', subjectId: transaction.id, at: now, data: openHoldView(hold) });
}

export interface HoldDecisionRequest {
  resolution: HoldResolution;
  reason: string;
  /** An admin's uid, or `cli:<operator>`. */
  by: string;
}

/** What a decision answers: the hold as settled, and the balance after a release. */
export interface HoldDecisionOutcome {
  hold: HoldView;
  newBalance: number | null;
}

/** 409 `hold-resolved`: the hold was settled before (its body shows how). */
const holdResolved = (hold: HoldView) =>
  new ApiError('hold-resolved', `The hold of transaction ${hold.transactionId} is already ${hold.resolution}`, {
    fields: { hold },
  });

/**
 * Releases or rejects a hold. A release credits the held points in one commit: the
 * `earn` entry (under the transaction's id, as an award writes it), both balances and
 * the rank, the points added this month (they expire counting from the release), and
 * the transaction `awarded`. A rejection credits nothing; the transaction stays `held`
 * with `holdResolution: "rejected"`. Either way the user's `heldPoints` go down, the
 * user is told (holdDecisions/{id}'s trigger) and the webhook announces it.
 *
 * Exactly once: the commit is guarded by the hold's version, and a commit whose answer
 * was lost is found on the fresh reads by this call's `decisionId`.
 */
export async function decideHold(transactionId: string, request: HoldDecisionRequest): Promise<HoldDecisionOutcome> {
  const decisionId = randomUUID();
  const holdRef = holdsCollection().doc(transactionId);
  const transactionRef = transactionsCollection().doc(transactionId);
  const config = request.resolution === 'released' ? await loadRewardsConfig() : undefined;

  const outcome = await commitOnFreshReads<HoldDecisionOutcome>(async (batch) => {
    const [holdSnap, transactionSnap] = await db().getAll(holdRef, transactionRef);
    if (!holdSnap.exists || !transactionSnap.exists) {
      throw new ApiError('hold-not-found', `No hold for transaction ${transactionId}`);
    }
    const hold = holdView(holdSnap);
    if (hold.resolution !== null) {
      if (holdSnap.get('decisionId') !== decisionId) throw holdResolved(hold);
      const newBalance = holdSnap.get('newBalance');
      return { result: { hold, newBalance: typeof newBalance === 'number' ? newBalance : null }, commit: false };
    }
    const userRef = usersCollection().doc(hold.userId);
    const [userSnap] = await db().getAll(userRef);
    const user = userFromSnapshot(userSnap);
    const now = new Date();
    const settled = settledHold(hold, { ...request, at: now });
    const heldPoints = Math.max(0, (user?.heldPoints ?? 0) - hold.points);
    let newBalance: number | null = null;
    if (request.resolution === 'released') {
      // An erased person is owed nothing: their hold can only be rejected.
      if (!user) throw notFound(`User ${hold.userId} not found`);
      newBalance = user.currentPoints + hold.points;
      const totalPoints = user.totalPoints + hold.points;
      const pointsByMonth = changePoints(user.pointsByMonth, hold.points, monthOf(now));
      batch.create(
        ledgerCollection().doc(transactionId),
        newLedgerEntry({
          userId: hold.userId,
          kind: 'earn',
          points: hold.points,
          balanceAfter: newBalance,
          transaction: {
            id: transactionId,
            kioskId: hold.kioskId,
            plasticCount: transactionSnap.get('plasticCount'),
            metalCount: transactionSnap.get('metalCount'),
            occurredAt: occurredAtOf(transactionSnap.data()!),
            // As the award would have written it: the promotions were applied (and their budgets spent) when held.
            breakdown: transactionSnap.get('breakdown') ?? legacyBreakdown(hold.points),
          },
        }),
      );
      batch.update(
        userRef,
        {
          currentPoints: newBalance,
          totalPoints,
          rank: rankFor(config!, totalPoints),
          heldPoints,
          ...pointsModel(pointsByMonth),
        },
        { lastUpdateTime: userSnap.updateTime! },
      );
      batch.update(transactionRef, { status: 'awarded', holdResolution: 'released' });
    } else {
      if (user) batch.update(userRef, { heldPoints }, { lastUpdateTime: userSnap.updateTime! });
      batch.update(transactionRef, { holdResolution: 'rejected' });
    }
    batch.update(holdRef, { ...settled.update, decisionId, newBalance }, { lastUpdateTime: holdSnap.updateTime! });
    stageHoldDecision(batch, transactionId, {
      userId: hold.userId,
      kioskId: hold.kioskId,
      resolution: request.resolution,
      points: hold.points,
      newBalance: newBalance ?? user?.currentPoints ?? 0,
    });
    stageWebhookEvent(batch, {
      type: request.resolution === 'released' ? 'points.released' : 'points.rejected',
      subjectId: transactionId,
      at: now,
      data: settled.view,
    });
    return { result: { hold: settled.view, newBalance }, commit: true };
  });

  logInfo(request.resolution === 'released' ? 'hold_released' : 'hold_rejected', {
    transactionId,
    userId: outcome.hold.userId,
    points: outcome.hold.points,
    by: request.by,
  });
  return outcome;
}

/**
 * What a user is told of a decision on their hold: the in-app notification
 * (`points-released` or `points-rejected`) and a push when they have a device token,
 * exactly once however often the trigger (or the sweep) runs (services/notifyOnce.ts).
 */
export async function applyHoldDecisionEffects(transactionId: string, push: PushTransport): Promise<Claim['state']> {
  return tellOnce(
    holdDecisionsCollection().doc(transactionId),
    'holdDecision',
    (decision) => ({
      // Beside the deposit's own notification (under the transaction's id).
      notificationId: `${transactionId}-${decision.resolution}`,
      type: decision.resolution === 'released' ? 'points-released' : 'points-rejected',
      content: holdDecisionNotification({
        transactionId,
        kioskId: decision.kioskId,
        resolution: decision.resolution,
        points: decision.points,
        newBalance: decision.newBalance,
      }),
    }),
    push,
  );
}
