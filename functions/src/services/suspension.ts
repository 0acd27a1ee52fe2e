import { Timestamp } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import { rewardsConfigFromSnapshot, rewardsConfigRef } from '../data/rewardsConfig';
import { toUserView, userFromSnapshot, usersCollection, type UserView } from '../data/users';
import { ApiError, notFound } from '../errors';
import { logInfo } from '../log';

/**
 * Suspends a user (contract §17), or lifts it (`suspension` null): while suspended,
 * every deposit for them is held (`user-suspended`) and redemptions are 403. Written
 * on the profile, which every award and redemption reads and guards its commit with:
 * one that read the user before this write reads again and sees it.
 */
export async function setSuspension(
  userId: string,
  suspension: { reason: string; by: string } | null,
): Promise<UserView> {
  const user = await runTransaction(async (tx) => {
    const [userSnap, configSnap] = await tx.getAll(usersCollection().doc(userId), rewardsConfigRef());
    const found = userFromSnapshot(userSnap);
    if (!found) throw notFound(`User ${userId} not found`);
    tx.update(userSnap.ref, {
      suspension: suspension && { ...suspension, at: Timestamp.now() },
    });
    return toUserView({ ...found, suspended: suspension !== null }, rewardsConfigFromSnapshot(configSnap));
  });
  logInfo(suspension ? 'user_suspended' : 'user_unsuspended', { userId, ...(suspension && { by: suspension.by }) });
  return user;
}

/** 403 `account-suspended`: what a suspended user may not do (redeem, claim). */
export const accountSuspended = (userId: string) =>
  new ApiError('account-suspended', `The account of user ${userId} is suspended; ask support`);
