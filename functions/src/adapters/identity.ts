import { adminApp } from './firestore';

export interface VerifiedCaller {
  uid: string;
  admin: boolean;
}

/**
 * Verifies a Firebase ID token (signature, expiry, audience; against the Auth
 * emulator when FIREBASE_AUTH_EMULATOR_HOST is set). firebase-admin/auth is loaded
 * on the first authenticated request only. Returns undefined for any bad token.
 */
export async function verifyIdToken(idToken: string): Promise<VerifiedCaller | undefined> {
  const { getAuth } = await import('firebase-admin/auth');
  try {
    const decoded = await getAuth(adminApp()).verifyIdToken(idToken);
    return { uid: decoded.uid, admin: decoded.admin === true };
  } catch {
    return undefined;
  }
}
