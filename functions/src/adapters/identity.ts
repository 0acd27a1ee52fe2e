import type { Auth } from 'firebase-admin/auth';
import { adminApp } from './firestore';

export interface VerifiedCaller {
  uid: string;
  admin: boolean;
}

let auth: Auth | undefined;

/** firebase-admin/auth is loaded on the first authenticated request only, then kept. */
function authClient(): Auth {
  auth ??= (require('firebase-admin/auth') as typeof import('firebase-admin/auth')).getAuth(adminApp());
  return auth;
}

/**
 * Verifies a Firebase ID token (signature, expiry, audience; against the Auth
 * emulator when FIREBASE_AUTH_EMULATOR_HOST is set). Returns undefined for any bad token.
 */
export async function verifyIdToken(idToken: string): Promise<VerifiedCaller | undefined> {
  try {
    const decoded = await authClient().verifyIdToken(idToken);
    return { uid: decoded.uid, admin: decoded.admin === true };
  } catch {
    return undefined;
  }
}
