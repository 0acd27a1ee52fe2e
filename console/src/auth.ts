/**
 * The staff member's session: Firebase Auth with e-mail and password, admitted only
 * with the `admin` claim (the API checks the same claim on every admin route).
 */
import { FirebaseError, initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserSessionPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  signInWithEmailAndPassword,
  signOut as firebaseSignOut,
  type Auth,
  type User,
} from 'firebase/auth';
import type { Environment } from './environment';
import { createStore, useStore } from './store';

export interface Notice {
  kind: 'status' | 'alert';
  text: string;
}

export type Session =
  { state: 'starting' } | { state: 'signed-out'; notice?: Notice } | { state: 'signed-in'; user: User };

export const NOT_AN_OPERATOR = 'This account is not an operator.';
const EXPIRED: Notice = { kind: 'status', text: 'Your session has expired. Please sign in again.' };

const session = createStore<Session>({ state: 'starting' });
export const useSession = (): Session => useStore(session);

let auth: Auth | undefined;
/** While signIn() decides about a user itself, the auth listener leaves that user alone. */
let signingIn = false;

const isOperator = async (user: User): Promise<boolean> => (await user.getIdTokenResult()).claims.admin === true;

export function startSession(environment: Environment): void {
  // getAuth() would add the popup/redirect sign-in helper, which on phones and Safari loads Google's script and an
  // iframe at every start; the console signs in with e-mail and password only, and its Content-Security-Policy
  // allows neither (docs/console.md). Same persistence as getAuth().
  auth = initializeAuth(initializeApp(environment.firebaseConfig), {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
  });
  // Only the Hosting emulator names an Auth emulator, so this never happens in production; the SDK's own
  // banner saying so would cover the page's bottom (its console warning stays).
  if (environment.authEmulatorHost) {
    connectAuthEmulator(auth, `http://${environment.authEmulatorHost}`, { disableWarnings: true });
  }
  onAuthStateChanged(auth, (user) => {
    if (signingIn) return;
    if (!user) {
      // Signed out without the console asking (e.g. the refresh token was revoked): the session expired.
      const { state } = session.get();
      if (state !== 'signed-out')
        session.set(state === 'signed-in' ? { state: 'signed-out', notice: EXPIRED } : { state: 'signed-out' });
      return;
    }
    isOperator(user).then(
      (operator) =>
        operator ? session.set({ state: 'signed-in', user }) : endSession({ kind: 'alert', text: NOT_AN_OPERATOR }),
      () => endSession(EXPIRED),
    );
  });
}

/** Signs in, or throws an Error whose message is for people. */
export async function signIn(email: string, password: string): Promise<void> {
  if (!auth) throw new Error('The console has not started yet.');
  signingIn = true;
  try {
    const { user } = await signInWithEmailAndPassword(auth, email, password).catch((error: unknown) => {
      throw new Error(signInFailure(error));
    });
    if (!(await isOperator(user))) {
      await firebaseSignOut(auth);
      throw new Error(NOT_AN_OPERATOR);
    }
    session.set({ state: 'signed-in', user });
  } finally {
    signingIn = false;
  }
}

function signInFailure(error: unknown): string {
  const code = error instanceof FirebaseError ? error.code : '';
  switch (code) {
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
    case 'auth/wrong-password':
    case 'auth/user-not-found':
      return 'Wrong email or password.';
    case 'auth/invalid-email':
      return 'This is not an email address.';
    case 'auth/missing-password':
      return 'Enter your password.';
    case 'auth/user-disabled':
      return 'This account is disabled.';
    case 'auth/too-many-requests':
      return 'Too many attempts: wait a moment, then try again.';
    case 'auth/network-request-failed':
      return 'The sign-in service cannot be reached. Check the connection and try again.';
    default:
      return `Sign-in failed${code ? ` (${code})` : ''}.`;
  }
}

export const signOut = (): Promise<void> => endSession();

/** The API refused the token (401) or it could not be refreshed: back to sign-in, saying why. */
export const expireSession = (): Promise<void> => endSession(EXPIRED);

async function endSession(notice?: Notice): Promise<void> {
  session.set({ state: 'signed-out', notice });
  if (auth?.currentUser) await firebaseSignOut(auth);
}

/** A fresh ID token for the API (the SDK refreshes it when it is about to expire). */
export async function idToken(): Promise<string> {
  const user = auth?.currentUser;
  if (!user) {
    await expireSession();
    throw new Error(EXPIRED.text);
  }
  try {
    return await user.getIdToken();
  } catch {
    await expireSession();
    throw new Error(EXPIRED.text);
  }
}
