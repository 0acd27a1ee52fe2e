import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { usersCollection } from './users';

/** users/{userId}/notifications: the in-app inbox the app reads (and marks read) directly. */
export const notificationsOf = (userId: string) => usersCollection().doc(userId).collection('notifications');

export interface NewNotification {
  /**
   * `transaction` for an award, `redemption` for a reward redeemed (the id is theirs), `message` for an operator's, `voucher-used` when a partner used a voucher,
   * `points-expiring` for points that expire in 30 days (services/expiryReminders.ts).
   */
  type: 'transaction' | 'redemption' | 'message' | 'points-expiring' | 'voucher-used';
  title: string;
  body: string;
  data: Record<string, string>;
}

/** A notification document as first stored: unread. The one place one is written out. */
export const newNotification = (notification: NewNotification): DocumentData => ({
  type: notification.type,
  title: notification.title,
  body: notification.body,
  data: notification.data,
  read: false,
  createdAt: FieldValue.serverTimestamp(),
});
