/** Auth accounts for the admins commands and the demo seed. */
import { getAuth, type UserRecord as AuthUser } from 'firebase-admin/auth';
import { adminApp } from '../adapters/firestore';
import { CliError } from './errors';

export type { AuthUser };

export const auth = () => getAuth(adminApp());

export async function findAccountByEmail(email: string): Promise<AuthUser | undefined> {
  try {
    return await auth().getUserByEmail(email);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') return undefined;
    throw error;
  }
}

export async function findAccount(by: { name: string; value: string }): Promise<AuthUser> {
  if (by.name === 'email') {
    const account = await findAccountByEmail(by.value);
    if (!account) throw new CliError(`no account with the e-mail address ${by.value}`);
    return account;
  }
  try {
    return await auth().getUser(by.value);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') {
      throw new CliError(`no account with uid ${by.value}`);
    }
    throw error;
  }
}

/** Changes only the admin claim; the account's other custom claims stay. */
export async function setAdminClaim(account: AuthUser, admin: boolean): Promise<void> {
  const claims: Record<string, unknown> = { ...(account.customClaims ?? {}) };
  if (admin) claims.admin = true;
  else delete claims.admin;
  await auth().setCustomUserClaims(account.uid, Object.keys(claims).length > 0 ? claims : null);
}

/**
 * Ends an admin's rights at once: the claim goes, and every refresh token and ID token
 * issued until now is revoked, so /admin/* and /notify/* (which check revocation)
 * refuse the tokens the account still holds. It is signed out everywhere.
 */
export async function revokeAdmin(account: AuthUser): Promise<void> {
  await setAdminClaim(account, false);
  await auth().revokeRefreshTokens(account.uid);
}

export const describeAccount = (account: AuthUser) =>
  account.email ? `${account.email} (uid ${account.uid})` : `uid ${account.uid}`;
