/**
 * Claim-then-act for what a user is told about one document (a transaction, a
 * redemption): the in-app notification and at most one push, recorded in the
 * document's `effects`, so a redelivered trigger never tells twice.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from 'firebase-admin/messaging';
import { FieldValue, type DocumentData, type DocumentReference, type Transaction } from 'firebase-admin/firestore';
import { logError, logInfo, logWarn } from '../log';
import { runTransaction } from '../adapters/firestore';
import { PushError, type PushTransport } from '../adapters/push';
import { newNotification, notificationsOf, type NewNotification } from '../data/notifications';
import { forgetPushToken, isErasedProfile, userFromSnapshot, usersCollection } from '../data/users';
import { effectsSettled } from '../data/pendingEffects';
import type { NotificationContent } from '../domain/messages';

export type PushOutcome =
  { status: 'sent'; messageId: string } | { status: 'skipped' } | { status: 'failed'; error: string };

export type Claim =
  { state: 'missing' | 'complete' | 'completed-now' } | { state: 'push-claimed'; message: Message; token: string };

/** What is told, to whom, about which document (`subject` names the log events: `<subject>_push_sent`). */
export interface Telling {
  subject: 'transaction' | 'redemption' | 'expiryReminder' | 'voucherUse' | 'holdDecision';
  ref: DocumentReference;
  /** The document's `effects` as read in the transaction. */
  effects: DocumentData;
  userId: string;
  /** The notification's id: the document's own. */
  notificationId: string;
  type: NewNotification['type'];
  content: NotificationContent;
  pushToken: string | undefined;
  /** The user was erased: told nothing, and no notification is kept for them (contract §15). */
  userErased: boolean;
  /** Chosen once per run: a body that runs again after its own claim landed finds the claim its own. */
  claimId: string;
}

/** What is told of a document, as its service describes it: `tellOnce` finds the rest (whom: the document's `userId`). */
export type WhatToTell = Pick<Telling, 'notificationId' | 'type' | 'content'>;

/**
 * The whole of claim-then-act for one document (`ref`): in one transaction, reads it
 * (`missing` when it is not there, `complete` when its `effects` are) and stages the
 * telling that `describe` returns, to the document's `userId`; after the commit, sends
 * the push when it was claimed. `describe` may instead settle the document itself in
 * `tx` and return the final Claim (a redemption cancelled before it was told).
 */
export async function tellOnce(
  ref: DocumentReference,
  subject: Telling['subject'],
  describe: (document: DocumentData, tx: Transaction) => WhatToTell | Claim,
  push: PushTransport,
): Promise<Claim['state']> {
  const claimId = randomUUID();

  const claim = await runTransaction<Claim>(async (tx) => {
    const document = (await tx.get(ref)).data();
    if (!document) return { state: 'missing' };
    const effects: DocumentData = document.effects ?? {};
    if (effects.completedAt) return { state: 'complete' };
    const told = describe(document, tx);
    if ('state' in told) return told;
    const userId: string = document.userId;
    // The user is read outside the lock: a run must not hold up their next award.
    const userSnap = await usersCollection().doc(userId).get();
    const user = userFromSnapshot(userSnap);
    return stageTelling(tx, {
      ...told,
      userId,
      subject,
      ref,
      effects,
      pushToken: user?.pushToken,
      userErased: isErasedProfile(userSnap),
      claimId,
    });
  });

  if (claim.state !== 'push-claimed') return claim.state;
  await pushClaimed(claim, push, subject, ref);
  return 'completed-now';
}

/**
 * Stages in `tx`: the notification unless written before, and the claim of the push
 * (`effects.push.status = "sending"`) when there is a token and no push was tried;
 * else the push's final state and `effects.completedAt`. A claim left "sending" by
 * a run that died is recorded as failed, "interrupted": at most one push.
 */
export function stageTelling(tx: Transaction, telling: Telling): Claim {
  const { ref, effects, userId, notificationId, type, content, pushToken, claimId } = telling;
  if (telling.userErased) {
    tx.update(ref, {
      'effects.untold': 'user-erased',
      'effects.completedAt': FieldValue.serverTimestamp(),
      ...effectsSettled(),
    });
    return { state: 'completed-now' };
  }
  const marks: DocumentData = {};
  if (effects.notificationId === undefined) {
    tx.set(notificationsOf(userId).doc(notificationId), newNotification({ type, ...content }));
    marks['effects.notificationId'] = notificationId;
  }

  const claimedByThisRun = effects.push?.status === 'sending' && effects.push.claimId === claimId;
  let claimed: Claim = { state: 'completed-now' };
  if ((effects.push === undefined || claimedByThisRun) && pushToken) {
    const message: Message = {
      token: pushToken,
      notification: { title: content.title, body: content.body },
      data: content.data,
    };
    if (!claimedByThisRun) {
      marks['effects.push'] = { status: 'sending', claimId, claimedAt: FieldValue.serverTimestamp() };
    }
    claimed = { state: 'push-claimed', message, token: pushToken };
  } else {
    if (effects.push === undefined || claimedByThisRun) marks['effects.push'] = { status: 'skipped' };
    else if (effects.push.status === 'sending') marks['effects.push'] = { status: 'failed', error: 'interrupted' };
    Object.assign(marks, { 'effects.completedAt': FieldValue.serverTimestamp(), ...effectsSettled() });
  }
  if (Object.keys(marks).length > 0) tx.update(ref, marks);
  return claimed;
}

/** Sends a claimed push and records its outcome with `effects.completedAt`, last. */
export async function pushClaimed(
  claim: Extract<Claim, { state: 'push-claimed' }>,
  push: PushTransport,
  subject: Telling['subject'],
  ref: DocumentReference,
): Promise<void> {
  const outcome = await deliver(claim.message, claim.token, push, subject, ref.id);
  await persistently(`${subject}_outcome_write`, ref.id, () =>
    ref.update({ 'effects.push': outcome, 'effects.completedAt': FieldValue.serverTimestamp(), ...effectsSettled() }),
  );
}

async function deliver(
  message: Message,
  token: string,
  push: PushTransport,
  subject: Telling['subject'],
  id: string,
): Promise<PushOutcome> {
  const about = { [`${subject}Id`]: id };
  try {
    const messageId = await push.send(message);
    logInfo(`${subject}_push_sent`, { ...about, messageId });
    return { status: 'sent', messageId };
  } catch (error) {
    const failure = error instanceof PushError ? error : new PushError('unavailable', 'unknown');
    logWarn(`${subject}_push_failed`, { ...about, failure: failure.failure, code: failure.providerCode });
    if (failure.failure === 'unregistered') {
      // Given up on (logged) rather than failing the run: the next push to the token finds it dead again.
      await persistently('push_token_forget', id, () => forgetPushToken(token)).catch(() => undefined);
    }
    return { status: 'failed', error: failure.failure };
  }
}

/** How long a write after the push is retried before the run gives up on it. */
export const PERSIST_DEADLINE_MS = 20_000;

/**
 * Retries `write` with jittered backoff until it succeeds or the deadline passes.
 * What a run learnt from the push (the message id, a dead token) exists only in its
 * memory until written: a redelivery would find the claim still "sending" and could
 * only record the push as interrupted.
 */
async function persistently<T>(what: string, id: string, write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + PERSIST_DEADLINE_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      if (Date.now() > deadline) {
        logError(`${what}_failed`, { id, attempts: attempt, code });
        throw error;
      }
      logWarn(`${what}_retried`, { id, attempt, code });
      await sleep(Math.random() * Math.min(2000, 100 * 2 ** attempt));
    }
  }
}
