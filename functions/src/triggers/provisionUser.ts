import { FieldValue } from 'firebase-admin/firestore';
import { logInfo } from '../log';
import { usersCollection } from '../data/users';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { startingRank } from '../domain/rewards';

export interface NewAccount {
  uid: string;
  displayName?: string;
  email?: string;
}

const ALREADY_EXISTS = 6;

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
    await usersCollection().doc(account.uid).create({
      name: profileName(account),
      currentPoints: 0,
      totalPoints: 0,
      recycledCount: 0,
      rank: startingRank(config),
      createdAt: FieldValue.serverTimestamp(),
    });
    logInfo('user_provisioned', { uid: account.uid });
  } catch (error) {
    if ((error as { code?: unknown }).code !== ALREADY_EXISTS) throw error;
    logInfo('user_profile_exists', { uid: account.uid });
  }
}
