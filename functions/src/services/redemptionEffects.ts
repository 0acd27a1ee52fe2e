import { randomUUID } from 'node:crypto';
import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import type { PushTransport } from '../adapters/push';
import { effectsSettled } from '../data/pendingEffects';
import { redemptionsCollection } from '../data/redemptions';
import { isErasedProfile, userFromSnapshot, usersCollection } from '../data/users';
import { redemptionNotification } from '../domain/messages';
import { pushClaimed, stageTelling, type Claim } from './notifyOnce';

/**
 * What a user is told of a redemption: the in-app notification (its id is the
 * redemption's) and a push when they have a device token, exactly once however often
 * the trigger runs: claim-then-act on the redemption's `effects` (services/notifyOnce.ts).
 * A redemption cancelled before anything was told is not announced at all: its
 * `effects` record that (`untold: "cancelled"`) as their final state.
 */
export async function applyRedemptionEffects(redemptionId: string, push: PushTransport): Promise<Claim['state']> {
  const redemptionRef = redemptionsCollection().doc(redemptionId);
  const claimId = randomUUID();

  const claim = await runTransaction<Claim>(async (tx) => {
    const redemption = (await tx.get(redemptionRef)).data();
    if (!redemption) return { state: 'missing' };
    const effects: DocumentData = redemption.effects ?? {};
    if (effects.completedAt) return { state: 'complete' };
    if (redemption.status === 'cancelled' && effects.notificationId === undefined && effects.push === undefined) {
      tx.update(redemptionRef, {
        'effects.untold': 'cancelled',
        'effects.completedAt': FieldValue.serverTimestamp(),
        ...effectsSettled(),
      });
      return { state: 'completed-now' };
    }
    // The user is read outside the lock: a redemption's run must not hold up their next award.
    const userSnap = await usersCollection().doc(redemption.userId).get();
    const user = userFromSnapshot(userSnap);
    return stageTelling(tx, {
      subject: 'redemption',
      ref: redemptionRef,
      effects,
      userId: redemption.userId,
      notificationId: redemptionId,
      type: 'redemption',
      content: redemptionNotification({
        id: redemptionId,
        rewardName: redemption.rewardName,
        cost: redemption.cost,
        code: redemption.code ?? null,
        newBalance: redemption.balanceAfter,
      }),
      pushToken: user?.pushToken,
      userErased: isErasedProfile(userSnap),
      claimId,
    });
  });

  if (claim.state !== 'push-claimed') return claim.state;
  await pushClaimed(claim, push, 'redemption', redemptionRef);
  return 'completed-now';
}
