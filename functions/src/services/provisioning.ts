/**
 * Profiles are provisioned on the first request that needs one (there is no 2nd gen
 * Auth trigger that is not blocking): the user's own first /user/{id} request, or a
 * kiosk transaction naming a uid that has an Auth account but no profile yet. Either
 * way the profile is created with a `create` (a precondition that it does not exist),
 * so an existing profile is never overwritten and concurrent first requests agree.
 */
import { type DocumentData, type DocumentSnapshot, type WriteBatch } from 'firebase-admin/firestore';
import { isAlreadyExists } from '../adapters/firestore';
import { findAuthAccount, type AuthAccount } from '../adapters/identity';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { newProfile, profileName, userFromSnapshot, usersCollection, type UserRecord } from '../data/users';
import type { RewardsConfig } from '../domain/rewards';
import { logInfo } from '../log';

/** The profile of a new account, with no points: the fields the sign-up trigger used to write. */
const profileOf = (account: AuthAccount, rewards: RewardsConfig): DocumentData =>
  newProfile({ name: profileName(account), authAccount: true }, rewards);

/**
 * Gives `uid` its profile if it has an Auth account and no profile yet. Returns
 * whether a profile exists now (false: no such account). An erased user's document
 * stands (the create fails on it), and no route finds a user in it.
 */
export async function provisionProfile(uid: string): Promise<boolean> {
  const account = await findAuthAccount(uid);
  if (!account) return false;
  try {
    await usersCollection()
      .doc(uid)
      .create(profileOf(account, await loadRewardsConfig()));
    logInfo('user_provisioned', { uid, by: 'own-request' });
  } catch (error) {
    // Provisioned meanwhile (a concurrent first request, an award): that profile stands.
    if (!isAlreadyExists(error)) throw error;
  }
  return true;
}

/** The user an award credits, and how its new figures are staged. */
export interface ProfileToAward {
  /** Undefined: no profile, and no Auth account to provision one for. */
  user: UserRecord | undefined;
  /**
   * Stages the user's new figures: an update guarded by the read profile's update
   * time, or for a profile provisioned by this award its create, figures included
   * (a create fails on an existing profile, so a concurrent provisioning makes the
   * award run again on fresh reads instead of overwriting).
   */
  stageFigures(batch: WriteBatch, figures: DocumentData): void;
}

/**
 * The profile an award reads: the stored one, or where there is none and the uid has
 * an Auth account, a new one that the award's own commit creates. Costs nothing more
 * for a user who has a profile.
 */
export async function profileToAward(userSnap: DocumentSnapshot, rewards: RewardsConfig): Promise<ProfileToAward> {
  const stored = userFromSnapshot(userSnap);
  if (stored) {
    return {
      user: stored,
      stageFigures: (batch, figures) => batch.update(userSnap.ref, figures, { lastUpdateTime: userSnap.updateTime! }),
    };
  }
  // An erased user's document is kept for the books: the id is never provisioned again.
  if (userSnap.exists) return { user: undefined, stageFigures: () => undefined };
  const account = await findAuthAccount(userSnap.id);
  if (!account) return { user: undefined, stageFigures: () => undefined };
  const profile = profileOf(account, rewards);
  return {
    user: {
      id: userSnap.id,
      name: profile.name,
      currentPoints: 0,
      totalPoints: 0,
      recycledCount: 0,
      earnedByDay: {},
      pointsByMonth: {},
      heldPoints: 0,
      suspended: false,
      itemsByDay: {},
      lastDeposit: null,
    },
    stageFigures: (batch, figures) => batch.create(userSnap.ref, { ...profile, ...figures }),
  };
}
