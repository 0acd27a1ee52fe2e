import type { Auth, UserRecord } from 'firebase-admin/auth';
import { timedCall } from './callTiming';
import { adminApp } from './firestore';

export interface VerifiedCaller {
  uid: string;
  admin: boolean;
  /** When the user signed in (the token's `auth_time`), in seconds since the epoch. */
  signedInAt: number;
}

/** The token could not be checked at all (Google's keys or the Auth backend out of reach): no verdict on it. */
export class IdentityUnavailableError extends Error {
  constructor(readonly providerCode: string) {
    super(`ID token check unavailable (${providerCode})`);
    this.name = 'IdentityUnavailableError';
  }
}

let auth: Auth | undefined;

/** firebase-admin/auth is loaded on the first authenticated request only, then kept. */
function authClient(): Auth {
  auth ??= (require('firebase-admin/auth') as typeof import('firebase-admin/auth')).getAuth(adminApp());
  return auth;
}

/**
 * What firebase-admin reports when the revocation lookup (Auth API `accounts:lookup`)
 * got no usable answer. A bad token never produces these: its errors are
 * `auth/argument-error`, `auth/id-token-expired`, plain TypeErrors and SyntaxErrors
 * from decoding, and from the lookup `auth/id-token-revoked`, `auth/user-disabled`
 * or `auth/user-not-found`.
 */
const LOOKUP_UNAVAILABLE_CODES = new Set([
  'app/network-error',
  'app/network-timeout',
  // An answer that was not the Auth API's (a proxy's error page).
  'app/unable-to-parse-response',
  // No access token for the lookup (metadata server out of reach).
  'app/invalid-credential',
  // The Auth API answered with a server error firebase-admin has no name for.
  'auth/internal-error',
  'auth/quota-exceeded',
]);

/**
 * firebase-admin reports a failed fetch of Google's public keys with the code of a
 * bad token (`auth/argument-error`, token-verifier.js mapJwtErrorToAuthError) and the
 * fetch's own message: from UrlKeyFetcher when Google answered with an error, from
 * its HttpClient when no answer came. Pinned by test/unit/identity.test.ts.
 */
const KEY_FETCH_FAILED = /^(Error fetching public keys|Error while making request)/;

function unavailableCode(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return undefined;
  if (LOOKUP_UNAVAILABLE_CODES.has(code)) return code;
  if (code === 'auth/argument-error' && typeof message === 'string' && KEY_FETCH_FAILED.test(message)) {
    return 'public-keys-unavailable';
  }
  return undefined;
}

/**
 * Verifies a Firebase ID token (signature, expiry, audience; against the Auth
 * emulator when FIREBASE_AUTH_EMULATOR_HOST is set). With `checkRevoked`, also asks
 * the Auth backend whether the account is disabled or its tokens were revoked after
 * this one was issued (one Auth API call; the emulator makes it on every
 * verification). Returns 'revoked' for a token whose account's tokens were revoked
 * after it was issued or whose account is disabled, undefined for any other bad or expired token;
 * throws IdentityUnavailableError when the token could not be checked.
 */
export async function verifyIdToken(
  idToken: string,
  { checkRevoked }: { checkRevoked: boolean },
): Promise<VerifiedCaller | 'revoked' | undefined> {
  try {
    const decoded = await timedCall(() => authClient().verifyIdToken(idToken, checkRevoked));
    return { uid: decoded.uid, admin: decoded.admin === true, signedInAt: decoded.auth_time };
  } catch (error) {
    const unavailable = unavailableCode(error);
    if (unavailable) throw new IdentityUnavailableError(unavailable);
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'auth/id-token-revoked' || code === 'auth/user-disabled' ? 'revoked' : undefined;
  }
}

/** An Auth account, as far as a new profile is named after it. */
export interface AuthAccount {
  uid: string;
  displayName?: string;
  email?: string;
}

/** No account has this uid or address (or none could: an id or address Auth would never issue). */
const NO_SUCH_ACCOUNT_CODES = new Set(['auth/user-not-found', 'auth/invalid-uid', 'auth/invalid-email']);

/**
 * The Auth account of `uid`, or undefined when there is none. Throws
 * IdentityUnavailableError when the Auth backend could not be asked.
 */
export const findAuthAccount = (uid: string): Promise<AuthAccount | undefined> =>
  accountOrNone(() => authClient().getUser(uid));

/**
 * The Auth account whose e-mail address is `email`, or undefined when there is none.
 * Auth keeps one account per address and stores it lower-cased: the match ignores
 * case and nothing else. Throws IdentityUnavailableError when the Auth backend could
 * not be asked.
 */
export const findAuthAccountByEmail = (email: string): Promise<AuthAccount | undefined> =>
  accountOrNone(() => authClient().getUserByEmail(email));

/**
 * `missing` when `error` says the account does not exist; otherwise throws:
 * IdentityUnavailableError when the Auth backend could not be asked, else `error`.
 */
function ifNoSuchAccount<Missing>(error: unknown, missing: Missing): Missing {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NO_SUCH_ACCOUNT_CODES.has(code)) return missing;
  const unavailable = unavailableCode(error);
  if (unavailable) throw new IdentityUnavailableError(unavailable);
  throw error;
}

async function accountOrNone(lookup: () => Promise<UserRecord>): Promise<AuthAccount | undefined> {
  try {
    const { uid, displayName, email } = await lookup();
    return { uid, displayName, email };
  } catch (error) {
    return ifNoSuchAccount(error, undefined);
  }
}

/**
 * Deletes the Auth account of `uid`; false when there was none (deleted before, or
 * never). Throws IdentityUnavailableError when the Auth backend could not be asked.
 */
export async function deleteAuthAccount(uid: string): Promise<boolean> {
  try {
    await authClient().deleteUser(uid);
    return true;
  } catch (error) {
    return ifNoSuchAccount(error, false);
  }
}

/** The most accounts Auth's `getUsers` looks up in one call. */
export const ACCOUNT_LOOKUP_BATCH = 100;

/**
 * Which of `uids` have no Auth account, asked `ACCOUNT_LOOKUP_BATCH` at a time (one
 * `getUsers` call per batch, never one call per uid). Throws IdentityUnavailableError
 * when the Auth backend could not be asked.
 */
export async function uidsWithoutAccount(uids: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (let start = 0; start < uids.length; start += ACCOUNT_LOOKUP_BATCH) {
    const batch = uids.slice(start, start + ACCOUNT_LOOKUP_BATCH).map((uid) => ({ uid }));
    try {
      const { notFound } = await timedCall(() => authClient().getUsers(batch));
      for (const identifier of notFound) if ('uid' in identifier) missing.push(identifier.uid);
    } catch (error) {
      const unavailable = unavailableCode(error);
      if (unavailable) throw new IdentityUnavailableError(unavailable);
      throw error;
    }
  }
  return missing;
}
