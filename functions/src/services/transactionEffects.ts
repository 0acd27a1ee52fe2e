import { randomUUID } from 'node:crypto';
import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { effectsSettled } from '../data/pendingEffects';
import { db, runTransaction } from '../adapters/firestore';
import type { PushTransport } from '../adapters/push';
import { depositKioskFromSnapshot, kiosksCollection } from '../data/kiosks';
import { isErasedProfile, userFromSnapshot, usersCollection } from '../data/users';
import { transactionNotification } from '../domain/messages';
import { transactionsCollection } from '../data/transactions';
import { countOnKiosk } from './kioskFold';
import { pushClaimed, stageTelling, type Claim } from './notifyOnce';

/**
 * The side effects of a recorded transaction (kiosk counters and daily figures,
 * in-app notification, push), safe to run any number of times for one transaction.
 * Run again when an anonymous transaction is claimed (triggers/claimCreated.ts): its
 * kiosk counted it once, its claimer is told then.
 *
 * The kiosk's counters and daily figures come first: a fold (services/kioskFold.ts)
 * counts the transaction together with the kiosk's others not counted yet, so that
 * a kiosk's backlog does not become one write to its hot documents per transaction.
 *
 * Then claim-then-act (services/notifyOnce.ts): one Firestore transaction writes the
 * notification and claims the push together with marks on the transaction document,
 * so a redelivered event sees what was done. The push is sent after the claim and
 * its outcome written with `completedAt`, last: `completedAt` means every effect is
 * applied.
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
    // An anonymous deposit (§18) tells nobody until it is claimed: the claim makes its effects pending again.
    if (transaction.userId === null) {
      tx.update(transactionRef, { 'effects.completedAt': FieldValue.serverTimestamp(), ...effectsSettled() });
      return { state: 'completed-now' };
    }

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
      held: transaction.status === 'held',
    });
    return stageTelling(tx, {
      subject: 'transaction',
      ref: transactionRef,
      effects,
      userId: transaction.userId,
      notificationId: transactionId,
      type: 'transaction',
      content,
      pushToken: user?.pushToken,
      userErased: isErasedProfile(userSnap),
      claimId,
    });
  });

  if (claim.state !== 'push-claimed') return claim.state;

  await pushClaimed(claim, push, 'transaction', transactionRef);
  return 'completed-now';
}
