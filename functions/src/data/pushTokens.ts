/**
 * `pushTokens/{sha256 of the token}`: which user holds a device token. A token belongs to one account at a time
 * (a shared phone that changed accounts), and this document lets a registration find the previous holder with one
 * point read in its transaction, where a query over all users would lock a range of the users collection on every
 * registration. Only the service reads or writes it (no client rule allows it); it stores no token, only its hash.
 */
import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';

export const pushTokensCollection = () => db().collection('pushTokens');

export const pushTokenHolderRef = (token: string) => pushTokensCollection().doc(sha256Hex(token));

/** The holder document: the one place it is written out. */
export const newPushTokenHolder = (userId: string): DocumentData => ({
  userId,
  updatedAt: FieldValue.serverTimestamp(),
});
