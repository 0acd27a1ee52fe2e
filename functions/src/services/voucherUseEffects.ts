import { randomUUID } from 'node:crypto';
import type { DocumentData } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import type { PushTransport } from '../adapters/push';
import { isErasedProfile, userFromSnapshot, usersCollection } from '../data/users';
import { voucherUsesCollection } from '../data/voucherUses';
import { voucherUsedNotification } from '../domain/messages';
import { pushClaimed, stageTelling, type Claim } from './notifyOnce';

/** The notification of a use: not the redemption's own id, which its issue's notification has. */
export const voucherUsedNotificationId = (redemptionId: string) => `${redemptionId}-used`;

/**
 * What a user is told when a partner used their voucher: the in-app notification
 * (`type: "voucher-used"`) and a push when they have a device token, exactly once
 * however often the trigger (or the sweep) runs: claim-then-act on the use's
 * `effects` (services/notifyOnce.ts).
 */
export async function applyVoucherUseEffects(redemptionId: string, push: PushTransport): Promise<Claim['state']> {
  const useRef = voucherUsesCollection().doc(redemptionId);
  const claimId = randomUUID();

  const claim = await runTransaction<Claim>(async (tx) => {
    const use = (await tx.get(useRef)).data();
    if (!use) return { state: 'missing' };
    const effects: DocumentData = use.effects ?? {};
    if (effects.completedAt) return { state: 'complete' };
    // The user is read outside the lock: a use's run must not hold up their next award.
    const userSnap = await usersCollection().doc(use.userId).get();
    const user = userFromSnapshot(userSnap);
    return stageTelling(tx, {
      subject: 'voucherUse',
      ref: useRef,
      effects,
      userId: use.userId,
      notificationId: voucherUsedNotificationId(redemptionId),
      type: 'voucher-used',
      content: voucherUsedNotification({ redemptionId, rewardName: use.rewardName, usedAt: use.usedAt.toDate() }),
      pushToken: user?.pushToken,
      userErased: isErasedProfile(userSnap),
      claimId,
    });
  });

  if (claim.state !== 'push-claimed') return claim.state;
  await pushClaimed(claim, push, 'voucherUse', useRef);
  return 'completed-now';
}
