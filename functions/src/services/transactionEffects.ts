import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from 'firebase-admin/messaging';
import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { logError, logInfo, logWarn } from '../log';
import { db, runTransaction } from '../adapters/firestore';
import { PushError, type PushTransport } from '../adapters/push';
import { depositKioskFromSnapshot, kiosksCollection } from '../data/kiosks';
import { newNotification, notificationsOf } from '../data/notifications';
import { forgetPushToken, userFromSnapshot, usersCollection } from '../data/users';
import { transactionNotification } from '../domain/messages';
import { transactionsCollection } from '../data/transactions';
import { countOnKiosk } from './kioskFold';

export type PushOutcome =
  { status: 'sent'; messageId: string } | { status: 'skipped' } | { status: 'failed'; error: string };

type Claim =
  { state: 'missing' | 'complete' | 'completed-now' } | { state: 'push-claimed'; message: Message; token: string };

/**
 * The side effects of a recorded transaction (kiosk counters and daily figures,
 * in-app notification, push), safe to run any number of times for one transaction.
 *
 * The kiosk's counters and daily figures come first: a fold (services/kioskFold.ts)
 * counts the transaction together with the kiosk's others not counted yet, so that
 * a kiosk's backlog does not become one write to its hot documents per transaction.
 *
 * Then claim-then-act: one Firestore transaction writes the notification and claims
 * the push (`effects.push.status = "sending"`) together with marks on the
 * transaction document, so a redelivered event sees what was done. The push is sent
 * after the claim and its outcome written with `completedAt`, last: `completedAt`
 * means every effect is applied. A run that died between claim and outcome is not
 * pushed again (at most one push): its push is recorded as failed, "interrupted".
 *
 * The claim carries an id chosen once per run. When the claim commit lands but its
 * answer is lost, the SDK runs the transaction body again; the body then finds the
 * claim it made itself and goes on to push, instead of taking its own claim for one
 * left by a dead run.
 */
export async function applyTransactionEffects(transactionId: string, push: PushTransport): Promise<Claim['state']> {
  const transactionRef = transactionsCollection().doc(transactionId);
  const claimId = randomUUID();

  const recorded = await transactionRef.get();
  if (!recorded.exists) return 'missing';
  if (recorded.get('effects.completedAt')) return 'complete';
  await countOnKiosk(recorded);

  const claim = await runTransaction<Claim>(async (tx) => {
    const transactionSnap = await tx.get(transactionRef);
    const transaction = transactionSnap.data();
    if (!transaction) return { state: 'missing' };
    const effects: DocumentData = transaction.effects ?? {};
    if (effects.completedAt) return { state: 'complete' };

    // Kiosk and user are read outside the lock: many transactions of one kiosk or
    // user run at once, and locking those documents would make them wait on each other.
    const kioskRef = kiosksCollection().doc(transaction.kioskId);
    const userRef = usersCollection().doc(transaction.userId);
    const [kioskSnap, userSnap] = await db().getAll(kioskRef, userRef);
    const kiosk = depositKioskFromSnapshot(kioskSnap);
    const user = userFromSnapshot(userSnap);
    const content = transactionNotification({
      transactionId,
      kioskId: transaction.kioskId,
      kioskName: kiosk?.name ?? transaction.kioskId,
      totalItems: transaction.totalItems,
      pointsEarned: transaction.pointsEarned,
      newBalance: transaction.newBalance,
    });
    const marks: DocumentData = {};

    if (effects.notificationId === undefined) {
      tx.set(
        notificationsOf(transaction.userId).doc(transactionId),
        newNotification({ type: 'transaction', ...content }),
      );
      marks['effects.notificationId'] = transactionId;
    }

    const claimedByThisRun = effects.push?.status === 'sending' && effects.push.claimId === claimId;
    let claimed: Claim = { state: 'completed-now' };
    if ((effects.push === undefined || claimedByThisRun) && user?.pushToken) {
      const message: Message = {
        token: user.pushToken,
        notification: { title: content.title, body: content.body },
        data: content.data,
      };
      if (!claimedByThisRun) {
        marks['effects.push'] = { status: 'sending', claimId, claimedAt: FieldValue.serverTimestamp() };
      }
      claimed = { state: 'push-claimed', message, token: user.pushToken };
    } else {
      if (effects.push === undefined || claimedByThisRun) marks['effects.push'] = { status: 'skipped' };
      else if (effects.push.status === 'sending') marks['effects.push'] = { status: 'failed', error: 'interrupted' };
      marks['effects.completedAt'] = FieldValue.serverTimestamp();
    }
    if (Object.keys(marks).length > 0) tx.update(transactionRef, marks);
    return claimed;
  });

  if (claim.state !== 'push-claimed') return claim.state;

  const outcome = await deliver(claim.message, claim.token, push, transactionId);
  await persistently('transaction_outcome_write', transactionId, () =>
    transactionRef.update({ 'effects.push': outcome, 'effects.completedAt': FieldValue.serverTimestamp() }),
  );
  return 'completed-now';
}

async function deliver(
  message: Message,
  token: string,
  push: PushTransport,
  transactionId: string,
): Promise<PushOutcome> {
  try {
    const messageId = await push.send(message);
    logInfo('transaction_push_sent', { transactionId, messageId });
    return { status: 'sent', messageId };
  } catch (error) {
    const failure = error instanceof PushError ? error : new PushError('unavailable', 'unknown');
    logWarn('transaction_push_failed', { transactionId, failure: failure.failure, code: failure.providerCode });
    if (failure.failure === 'unregistered') {
      // Given up on (logged) rather than failing the run: the next push to the token finds it dead again.
      await persistently('push_token_forget', transactionId, () => forgetPushToken(token)).catch(() => undefined);
    }
    return { status: 'failed', error: failure.failure };
  }
}

/** How long a write after the push is retried before the run gives up on it. */
const PERSIST_DEADLINE_MS = 20_000;

/**
 * Retries `write` with jittered backoff until it succeeds or the deadline passes.
 * What a run learnt from the push (the message id, a dead token) exists only in its
 * memory until written: a redelivery would find the claim still "sending" and could
 * only record the push as interrupted.
 */
async function persistently<T>(what: string, transactionId: string, write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + PERSIST_DEADLINE_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      if (Date.now() > deadline) {
        logError(`${what}_failed`, { transactionId, attempts: attempt, code });
        throw error;
      }
      logWarn(`${what}_retried`, { transactionId, attempt, code });
      await sleep(Math.random() * Math.min(2000, 100 * 2 ** attempt));
    }
  }
}
