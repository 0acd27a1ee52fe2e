import type { PushTransport } from '../adapters/push';
import { expiryRemindersCollection } from '../data/expiryReminders';
import { pointsExpiringNotification } from '../domain/messages';
import { addDays } from '../domain/pointsExpiry';
import { tellOnce, type Claim } from './notifyOnce';

/**
 * What a user is told of a reminder that points expire (services/pointsExpiry.ts):
 * the in-app notification (`points-expiring`, its id the reminder's) and a push when
 * they have a device token, exactly once however often it runs: claim-then-act on the
 * reminder's `effects` (services/notifyOnce.ts). The effects sweep completes what a
 * run left undone.
 */
export async function applyExpiryReminderEffects(reminderId: string, push: PushTransport): Promise<Claim['state']> {
  return tellOnce(
    expiryRemindersCollection().doc(reminderId),
    'expiryReminder',
    (reminder) => ({
      notificationId: reminderId,
      type: 'points-expiring',
      content: pointsExpiringNotification({
        id: reminderId,
        points: reminder.points,
        lastValidDay: addDays(reminder.expiresOn, -1),
      }),
    }),
    push,
  );
}
