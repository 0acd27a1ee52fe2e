import { getApp, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { emulatorsFromEnv } from './emulators.ts';

/** The default firebase-admin app: the one the service's code in the same process uses. */
const defaultApp = () => (getApps().some((app) => app.name === '[DEFAULT]') ? getApp() : initializeApp());

/**
 * A real ID token from the Auth emulator (custom token → signInWithCustomToken).
 * Signing in creates the account (no profile: the account's first /user request or a
 * kiosk award provisions it).
 */
export async function idTokenFor(uid: string, claims: Record<string, unknown> = {}): Promise<string> {
  const customToken = await getAuth(defaultApp()).createCustomToken(uid, claims);
  const response = await fetch(
    `http://${emulatorsFromEnv().auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=emulator`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: customToken, returnSecureToken: true }),
    },
  );
  const result = (await response.json()) as { idToken?: string };
  if (!result.idToken) throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return result.idToken;
}
