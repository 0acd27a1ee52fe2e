import { logInfo } from '../log';
import { isAlreadyExists } from '../adapters/firestore';
import { newProfile, usersCollection } from '../data/users';
import { loadRewardsConfig } from '../data/rewardsConfig';

export interface NewAccount {
  uid: string;
  displayName?: string;
  email?: string;
}

export function profileName(account: NewAccount): string {
  const displayName = account.displayName?.trim();
  if (displayName) return displayName;
  const localPart = account.email?.split('@')[0]?.trim();
  return localPart || 'Recycler';
}

/**
 * auth.user().onCreate: gives every new account a profile with no points. create()
 * fails on an existing document, so a profile written first (an import, a retried
 * event) is never overwritten.
 */
export async function provisionUser(account: NewAccount): Promise<void> {
  const config = await loadRewardsConfig();
  try {
    await usersCollection()
      .doc(account.uid)
      .create(newProfile({ name: profileName(account) }, config));
    logInfo('user_provisioned', { uid: account.uid });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    logInfo('user_profile_exists', { uid: account.uid });
  }
}
