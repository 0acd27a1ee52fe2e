import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import type { Day } from '../domain/pointsExpiry';
import { effectsPending } from './pendingEffects';

/**
 * expiryReminders/{userId}_{day}: that some of a user's points expire on `day`, to be
 * told once (an in-app notification and a push, recorded in its `effects` as a
 * redemption's are). Its id makes one reminder per user and date however often the
 * run creates it; no client reads it.
 */
export const expiryRemindersCollection = () => db().collection('expiryReminders');

export const expiryReminderId = (userId: string, day: Day): string => `${userId}_${day}`;

export interface NewExpiryReminder {
  userId: string;
  /** The first day on which the points are no longer valid. */
  expiresOn: Day;
  points: number;
}

/** An expiryReminders/{id} document as first stored, its effects pending; the one place one is written out. */
export const newExpiryReminder = (reminder: NewExpiryReminder): DocumentData => ({
  ...reminder,
  createdAt: FieldValue.serverTimestamp(),
  ...effectsPending,
});
