/**
 * Finding a user by e-mail address. Profiles hold no address: the Auth account does,
 * so the address leads to the account's uid, and the uid to the profile.
 */
import { findAuthAccountByEmail } from '../adapters/identity';
import { ProfileNotFound, getUserView, type UserView } from '../data/users';

/**
 * The user whose account has this address (Auth's match: exact, ignoring case), as
 * GET /user/{id} shows them; none when no account has it, or its account has no
 * profile yet (never provisioned by an operator's look-up: an admin's request about
 * a user without a profile finds nothing, as on /user/{id}).
 */
export async function usersWithEmail(email: string): Promise<UserView[]> {
  const account = await findAuthAccountByEmail(email);
  if (!account) return [];
  try {
    return [await getUserView(account.uid)];
  } catch (error) {
    if (error instanceof ProfileNotFound) return [];
    throw error;
  }
}
