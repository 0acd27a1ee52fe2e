import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { newestFirstPage } from './userPages';
import { usersCollection } from './users';
import type { NotificationView } from '../model/pointsViews';

/** users/{userId}/notifications: the in-app inbox the app reads (and marks read) directly. */
export const notificationsOf = (userId: string) => usersCollection().doc(userId).collection('notifications');

export interface NewNotification {
  /**
   * `transaction` for an award, `redemption` for a reward redeemed (the id is theirs), `message` for an operator's, `voucher-used` when a partner used a voucher,
   * `points-expiring` for points that expire in 30 days (services/expiryReminders.ts).
   */
  type:
    | 'transaction'
    | 'redemption'
    | 'message'
    | 'points-expiring'
    | 'voucher-used'
    // Trust (contract §17): an operator released or rejected held points.
    | 'points-released'
    | 'points-rejected';
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

/** A notification as stored, for the user's export. */
export const notificationView = (snapshot: DocumentSnapshot): NotificationView => {
  const createdAt: unknown = snapshot.get('createdAt');
  return {
    id: snapshot.id,
    type: snapshot.get('type'),
    title: snapshot.get('title'),
    body: snapshot.get('body'),
    data: snapshot.get('data') ?? {},
    read: snapshot.get('read') === true,
    createdAt: (createdAt instanceof Timestamp ? createdAt.toDate() : new Date(0)).toISOString(),
  };
};

/** One page of a user's notifications, newest first (see newestFirstPage). */
export const notificationsPage = (userId: string, limit: number, cursor: string | undefined) =>
  newestFirstPage(notificationsOf(userId), undefined, { limit, cursor }, notificationView);
