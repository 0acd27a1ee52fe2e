import { randomUUID } from 'node:crypto';
import type { DocumentData } from 'firebase-admin/firestore';
import { runTransaction } from '../adapters/firestore';
import type { PushTransport } from '../adapters/push';
import { expiryRemindersCollection } from '../data/expiryReminders';
import { isErasedProfile, userFromSnapshot, usersCollection } from '../data/users';
import { pointsExpiringNotification } from '../domain/messages';
import { addDays } from '../domain/pointsExpiry';
import { pushClaimed, stageTelling, type Claim } from './notifyOnce';

/**
 * What a user is told of a reminder that points expire (services/pointsExpiry.ts):
 * the in-app notification (`points-expiring`, its id the reminder's) and a push when
 * they have a device token, exactly once however often it runs: claim-then-act on the
 * reminder's `effects` (services/notifyOnce.ts). The effects sweep completes what a
 * run left undone.
 */
export async function applyExpiryReminderEffects(reminderId: string, push: PushTransport): Promise<Claim['state']> {
  const reminderRef = expiryRemindersCollection().doc(reminderId);
  const claimId = randomUUID();

  const claim = await runTransaction<Claim>(async (tx) => {
    const reminder = (await tx.get(reminderRef)).data();
    if (!reminder) return { state: 'missing' };
    const effects: DocumentData = reminder.effects ?? {};
    if (effects.completedAt) return { state: 'complete' };
    // The user is read outside the lock: a reminder's run must not hold up their next award.
    const userSnap = await usersCollection().doc(reminder.userId).get();
    const user = userFromSnapshot(userSnap);
    return stageTelling(tx, {
      subject: 'expiryReminder',
      ref: reminderRef,
      effects,
      userId: reminder.userId,
      notificationId: reminderId,
      type: 'points-expiring',
      content: pointsExpiringNotification({
        id: reminderId,
        points: reminder.points,
        lastValidDay: addDays(reminder.expiresOn, -1),
      }),
      pushToken: user?.pushToken,
      userErased: isErasedProfile(userSnap),
      claimId,
    });
  });

  if (claim.state !== 'push-claimed') return claim.state;
  await pushClaimed(claim, push, 'expiryReminder', reminderRef);
  return 'completed-now';
}
