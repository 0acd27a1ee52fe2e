/**
 * A person erased (contract §15): their Auth account deleted; their name, push token
 * and notifications gone; their ledger entries, transactions and redemptions kept
 * for the books under the bare id, with a `forfeit` entry writing the balance off;
 * the id refused everywhere afterwards and never provisioned again. The API, the CLI
 * and the users sweep (accounts deleted in the Firebase console) all erase here.
 */
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { commitOnFreshReads, db, runTransaction } from '../adapters/firestore';
import { deleteAuthAccount, uidsWithoutAccount, ACCOUNT_LOOKUP_BATCH } from '../adapters/identity';
import { ledgerCollection, newLedgerEntry } from '../data/ledger';
import { notificationsOf } from '../data/notifications';
import { EFFECTS_PENDING, effectsSettled } from '../data/pendingEffects';
import { pushTokenHolderRef } from '../data/pushTokens';
import { ProfileNotFound, accountGone, erasedProfile, isErasedProfile, isPoints, usersCollection } from '../data/users';
import { logInfo } from '../log';
import { pages } from './ledgerBooks';
import type { TimeBudget } from '../domain/timeBudget';

/** The one `forfeit` entry of a user: an id derived from theirs, so erasing again never writes a second. */
export const forfeitEntryId = (userId: string): string => `forfeit-${userId}`;

export interface Erasure {
  userId: string;
  /** An Auth account was deleted now (false: there was none any more). */
  accountDeleted: boolean;
  /** The points written off by the user's `forfeit` entry (0: none). */
  forfeited: number;
}

/**
 * Erases `userId`, who must have a profile (else ProfileNotFound: nothing is done),
 * erased or not: erasing again completes what an interrupted erasure left (the
 * account, the notifications) and changes nothing else. `by`: who asked (an admin's
 * uid, the user's own, `cli:<operator>`), recorded on the `forfeit` entry.
 *
 * The profile goes first, the account after (contract, Part four: an erasure never
 * half-happens): an erasure cut short between them leaves an erased profile still
 * marked `authAccount`, whose account the users sweep deletes. The other order would
 * leave a live profile, its balance and name, without the account to reach it.
 */
export async function eraseUser(userId: string, by: string): Promise<Erasure> {
  const forfeited = await eraseProfile(userId, by);
  const accountDeleted = await deleteAccountOf(userId);
  return { userId, accountDeleted, forfeited };
}

/** Deletes the Auth account of an erased profile, then its `authAccount` mark. True when an account was deleted now. */
async function deleteAccountOf(userId: string): Promise<boolean> {
  const deleted = await deleteAuthAccount(userId);
  await usersCollection().doc(userId).update(accountGone());
  return deleted;
}

/**
 * Erases the profile of `userId` in one commit, guarded by a precondition on the user
 * document as read, as an award's commit is: a deposit that commits first is in the
 * balance written off (the erasure reads again), one that comes after finds the user
 * erased (404). Never a balance on an erased user. Then deletes the notifications;
 * the effects sweep deletes them again later (finishErasure).
 * Returns the points the user's `forfeit` entry writes off.
 */
async function eraseProfile(userId: string, by: string): Promise<number> {
  const userRef = usersCollection().doc(userId);
  const forfeitRef = ledgerCollection().doc(forfeitEntryId(userId));
  const forfeited = await commitOnFreshReads(async (batch) => {
    const [userSnap, forfeitSnap] = await db().getAll(userRef, forfeitRef);
    if (!userSnap.exists) throw new ProfileNotFound(userId);
    if (isErasedProfile(userSnap)) {
      return { result: forfeitSnap.exists ? -(forfeitSnap.get('points') as number) : 0, commit: false };
    }
    const currentPoints: unknown = userSnap.get('currentPoints');
    const balance = isPoints(currentPoints) ? currentPoints : 0;
    if (balance > 0) {
      batch.create(
        forfeitRef,
        newLedgerEntry({
          userId,
          kind: 'forfeit',
          points: -balance,
          balanceAfter: 0,
          reason: 'The user was erased: the balance is written off',
          by,
        }),
      );
    }
    batch.update(userRef, erasedProfile(), { lastUpdateTime: userSnap.updateTime! });
    const pushToken: unknown = userSnap.get('pushToken');
    if (typeof pushToken === 'string') batch.delete(pushTokenHolderRef(pushToken));
    return { result: balance, commit: true };
  });
  // recursiveDelete pages through the inbox itself (BulkWriter), in flat memory.
  await db().recursiveDelete(notificationsOf(userId));
  logInfo('user_erased', { userId, forfeited, by });
  return forfeited;
}

/**
 * The end of an erasure, run by the effects sweep on a profile erased at least its
 * minimum age ago (5 minutes, longer than any trigger's timeout). The triggers that
 * tell a user read the profile outside their transaction (locking it would make
 * awards wait on them): one that read it just before the erasure's commit can write
 * its notification after the erasure's delete, but no such run is left by now, and a
 * run that started later read the user erased and wrote nothing. So the notifications
 * are deleted again, then the profile's `effectsPending` is cleared, by one run only:
 * `completed-now` for that run, `complete` for any other (nothing changed).
 */
export async function finishErasure(userId: string): Promise<'missing' | 'complete' | 'completed-now'> {
  const userRef = usersCollection().doc(userId);
  const unfinished = (profile: DocumentSnapshot) => isErasedProfile(profile) && profile.get(EFFECTS_PENDING) === true;
  const profile = await userRef.get();
  if (!profile.exists) return 'missing';
  if (!unfinished(profile)) return 'complete';
  await db().recursiveDelete(notificationsOf(userId));
  return runTransaction(async (tx) => {
    if (!unfinished(await tx.get(userRef))) return 'complete';
    tx.update(userRef, effectsSettled());
    return 'completed-now';
  });
}

/** What a users sweep found. */
export interface UsersSweepOutcome {
  /** Profiles read. */
  profiles: number;
  /** Profiles made for an Auth account, not erased: their accounts looked up. */
  checked: number;
  /** Of those, how many had no account any more: erased now (each logged as `user_erased`). */
  erased: number;
  /** Erased profiles whose account an interrupted erasure left behind: deleted now. */
  accountsDeleted: number;
  /** The last profile gone through when the time budget ran out (the next run continues after it), else absent. */
  stoppedAfter?: string;
}

/**
 * The daily sweep for accounts deleted in the Firebase console (no 2nd gen trigger
 * hears of a deletion): pages through the profiles in id order, looks the accounts
 * of those made for one (`authAccount`, see data/users.ts) up a batch of at most 100
 * per call, and erases the profiles whose account is gone. A profile without the
 * mark never had an account (seeded data, an import) and is never erased here. An
 * erased profile still marked is an erasure cut short after its profile's commit:
 * its account is deleted now (and the mark with it). It starts after the profile id
 * `after` when given, and starts no new lookup batch once `budget` is spent.
 */
export async function sweepDeletedAccounts(
  by = 'users-sweep',
  { after, budget }: { after?: string; budget?: TimeBudget } = {},
): Promise<UsersSweepOutcome> {
  const outcome: UsersSweepOutcome = { profiles: 0, checked: 0, erased: 0, accountsDeleted: 0 };
  // Erased profiles still marked, met while paging: their accounts are deleted after each lookup batch.
  const leftBehind: string[] = [];
  const liveWithAccount = (profile: DocumentSnapshot) => {
    outcome.profiles++;
    if (profile.get('authAccount') !== true) return false;
    if (isErasedProfile(profile)) leftBehind.push(profile.id);
    return !isErasedProfile(profile);
  };
  for await (const batch of lookupBatches(
    pages(usersCollection(), undefined, undefined, undefined, after),
    liveWithAccount,
  )) {
    outcome.checked += batch.length;
    for (const userId of await uidsWithoutAccount(batch)) {
      await eraseProfile(userId, by);
      await usersCollection().doc(userId).update(accountGone());
      outcome.erased++;
    }
    outcome.accountsDeleted += await deleteAccountsLeftBehind(leftBehind.splice(0));
    // A full batch is yielded as its last profile is read (everything up to it is done); a short one is the last.
    if (batch.length === ACCOUNT_LOOKUP_BATCH && budget?.spent()) {
      outcome.stoppedAfter = batch.at(-1);
      break;
    }
  }
  outcome.accountsDeleted += await deleteAccountsLeftBehind(leftBehind.splice(0));
  return outcome;
}

async function deleteAccountsLeftBehind(userIds: readonly string[]): Promise<number> {
  let deleted = 0;
  for (const userId of userIds) if (await deleteAccountOf(userId)) deleted++;
  return deleted;
}

/**
 * The ids of the `profiles` that are `wanted`, in batches of at most
 * ACCOUNT_LOOKUP_BATCH: what one `getUsers` call looks up. Holds one batch at a time.
 */
export async function* lookupBatches(
  profiles: AsyncIterable<DocumentSnapshot>,
  wanted: (profile: DocumentSnapshot) => boolean,
): AsyncGenerator<string[]> {
  let batch: string[] = [];
  for await (const profile of profiles) {
    if (!wanted(profile)) continue;
    batch.push(profile.id);
    if (batch.length === ACCOUNT_LOOKUP_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
