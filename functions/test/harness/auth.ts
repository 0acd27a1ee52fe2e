import { getApp, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { emulatorsFromEnv } from './emulators.ts';
import { waitFor } from './wait.ts';

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

/**
 * An e-mail/password account in the Auth emulator, as a person signs in with it (the
 * console's sign-in form); `admin` sets the operator claim.
 */
export async function createPasswordAccount(account: { email: string; password: string; admin: boolean }) {
  const auth = getAuth(defaultApp());
  const { uid } = await auth.createUser({ email: account.email, password: account.password, emailVerified: true });
  if (account.admin) await auth.setCustomUserClaims(uid, { admin: true });
  return uid;
}

/**
 * Resolves once the clock has left the second of the call. Revocation counts in whole
 * seconds (a token issued in the second of the revocation stays valid): revoking after
 * this refuses every token issued before the call.
 */
export async function afterThisSecond(): Promise<void> {
  const calledIn = Math.floor(Date.now() / 1000);
  await waitFor(`the clock to leave second ${calledIn}, when a token may have been issued`, async () =>
    Math.floor(Date.now() / 1000) > calledIn ? true : undefined,
  );
}

/** Revokes every refresh token of the account: each ID token issued before the call is refused where revocation is checked. */
export async function revokeSessions(uid: string): Promise<void> {
  await afterThisSecond();
  await getAuth(defaultApp()).revokeRefreshTokens(uid);
}
