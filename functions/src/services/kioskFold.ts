import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { FieldValue, Timestamp, type DocumentReference, type DocumentSnapshot } from 'firebase-admin/firestore';
import { logError, logInfo, logWarn } from '../log';
import { isLostRace, recordOnEmulator, runTransaction } from '../adapters/firestore';
import { figuresOf, kioskDayIncrement, kioskDayRef, reportDayOf } from '../data/kioskDays';
import { foldLeaseFromSnapshot, heldFoldLease, kioskFoldsCollection, releasedFoldLease } from '../data/kioskFolds';
import { kiosksCollection } from '../data/kiosks';
import { transactionsCollection } from '../data/transactions';
import { addToDay, type KioskDayFigures } from '../domain/kioskDays';
import { timeBudget, type TimeBudget } from '../domain/timeBudget';

/**
 * A kiosk's counters (`kiosks/{id}`) and daily figures (`kioskDays/{id}_{day}`) are
 * hot documents: a kiosk uploading its backlog records up to 100 transactions within
 * a second, and deployed Firestore sustains about one write a second per document.
 * So no transaction writes them on its own. A fold counts a kiosk's transactions
 * in bulk: in one Firestore transaction it reads the transactions not yet counted
 * (the one at hand and the kiosk's others recorded within minutes of it), marks each
 * `effects.kioskCounted`, and increments the kiosk document once and each day's
 * document once (blind increments: the hot documents are never read, so never
 * locked). The mark, read and written in that same transaction, makes it exactly
 * once, whoever folds and however often an event is delivered.
 *
 * One fold at a time per kiosk: whoever folds holds the kiosk's lease
 * (`kioskFolds/{kioskId}`, taken with a precondition, never in a Firestore
 * transaction, so waiting for it is no contention), and a fold starts at least
 * FOLD_INTERVAL_MS after the previous one let go. A kiosk's hot documents are thus
 * written at most once a second, each write carrying everything recorded since. A
 * lease whose holder died expires after LEASE_MS.
 */

/** At most one write a second to each of a kiosk's hot documents. */
export const FOLD_INTERVAL_MS = 1_000;
/** How long a dead holder can keep the kiosk's folds waiting. */
const LEASE_MS = 30_000;
/** How long a run waits for the lease before failing (and being delivered again); within the trigger's 60 s. */
export const WAIT_FOR_LEASE_MS = 45_000;
/**
 * The kiosk's other transactions a fold looks for: recorded this close to the one at
 * hand. Close to it, not to now: when the triggers run behind (a backlog after an
 * outage), the first fold still takes in the siblings of its upload, instead of every
 * run folding only its own transaction, one a second.
 */
const NEARBY_MS = 2 * 60_000;
/** Transactions per fold: with the kiosk and at most one document per day, well under Firestore's 500 writes a commit. */
const MAX_FOLD = 200;

const isCounted = (transaction: DocumentSnapshot): boolean => transaction.get('effects.kioskCounted') !== undefined;

interface Lease {
  ref: DocumentReference;
  holder: string;
  /** Of the write that took it: releasing is conditional on it, so an expired lease taken over is never released by us. */
  writeTime: Timestamp;
  lastFoldAt: number | undefined;
}

/** Takes the kiosk's lease if nobody holds it (or its holder's time ran out); undefined when it is held. */
async function takeLease(kioskId: string): Promise<Lease | undefined> {
  const ref = kioskFoldsCollection().doc(kioskId);
  const holder = randomUUID();
  const snapshot = await ref.get();
  const state = foldLeaseFromSnapshot(snapshot);
  if (state.holder !== undefined && (state.heldUntil ?? 0) > Date.now()) return undefined;
  if (state.holder !== undefined) logWarn('kiosk_fold_lease_expired', { kioskId, holder: state.holder });
  const data = heldFoldLease(holder, new Date(Date.now() + LEASE_MS));
  try {
    const { writeTime } = snapshot.updateTime
      ? await ref.update(data, { lastUpdateTime: snapshot.updateTime })
      : await ref.create(data);
    return { ref, holder, writeTime, lastFoldAt: state.lastFoldAt };
  } catch (error) {
    if (!isLostRace(error)) throw error;
    // Taken by another run first, or this very write landed and its answer was lost
    // (the SDK's resend then fails on it): the holder says which.
    const now = await ref.get();
    if (now.get('holder') !== holder || !now.updateTime) return undefined;
    return { ref, holder, writeTime: now.updateTime, lastFoldAt: state.lastFoldAt };
  }
}

async function releaseLease(lease: Lease, folded: boolean): Promise<void> {
  try {
    await lease.ref.update(releasedFoldLease(folded), { lastUpdateTime: lease.writeTime });
  } catch (error) {
    // A lost race: the lease ran out and another run holds it, or this release landed
    // with its answer lost. Otherwise the lease runs out by itself.
    if (!isLostRace(error)) {
      logWarn('kiosk_fold_lease_release_failed', { kioskId: lease.ref.id, code: (error as { code?: unknown }).code });
    }
  }
}

interface Folded {
  transactions: number;
  days: string[];
}

/**
 * Counts `include` (transactions of this kiosk) and the kiosk's other transactions
 * recorded within NEARBY_MS of `around` not counted yet, in one Firestore
 * transaction. Undefined when all of them were counted already.
 */
async function foldOnce(kioskId: string, include: readonly string[], around: number): Promise<Folded | undefined> {
  const kioskRef = kiosksCollection().doc(kioskId);
  const [recent, kiosk] = await Promise.all([
    transactionsCollection()
      .where('kioskId', '==', kioskId)
      .where('createdAt', '>=', Timestamp.fromMillis(around - NEARBY_MS))
      .where('createdAt', '<=', Timestamp.fromMillis(around + NEARBY_MS))
      .orderBy('createdAt', 'desc')
      .limit(MAX_FOLD)
      .select('effects.kioskCounted')
      .get(),
    kioskRef.get(),
  ]);
  const ids = [...new Set([...include, ...recent.docs.filter((doc) => !isCounted(doc)).map((doc) => doc.id)])];
  const refs = ids.slice(0, MAX_FOLD).map((id) => transactionsCollection().doc(id));
  // As before any fold: read outside the transaction, so a kiosk status report never waits on it.
  const kioskExists = kiosk.exists;

  const folded = await runTransaction<Folded | undefined>(async (tx) => {
    const pending = (await tx.getAll(...refs)).filter(
      (transaction) => transaction.exists && !isCounted(transaction) && transaction.get('kioskId') === kioskId,
    );
    if (pending.length === 0) return undefined;
    const days = new Map<string, KioskDayFigures>();
    let plasticCount = 0;
    let metalCount = 0;
    for (const transaction of pending) {
      const figures = figuresOf(transaction);
      addToDay(days, reportDayOf(transaction), figures);
      plasticCount += figures.plasticCount;
      metalCount += figures.metalCount;
      tx.update(transaction.ref, { 'effects.kioskCounted': kioskExists, 'effects.kioskDay': reportDayOf(transaction) });
    }
    if (kioskExists) {
      tx.update(kioskRef, {
        plasticCount: FieldValue.increment(plasticCount),
        metalCount: FieldValue.increment(metalCount),
        lastUpdated: FieldValue.serverTimestamp(),
      });
    }
    for (const [day, figures] of days)
      tx.set(kioskDayRef(kioskId, day), kioskDayIncrement(kioskId, day, figures), { merge: true });
    return { transactions: pending.length, days: [...days.keys()].sort() };
  });
  if (!folded) return undefined;
  if (!kioskExists) logError('transaction_kiosk_missing', { kioskId, transactions: folded.transactions });
  logInfo('kiosk_fold_committed', { kioskId, ...folded });
  await recordOnEmulator('kiosk_fold_committed', { kioskId, ...folded });
  return folded;
}

/** One fold by the holder of `lease`, FOLD_INTERVAL_MS after the last; the lease is let go of afterwards. */
async function foldUnderLease(
  lease: Lease,
  kioskId: string,
  include: readonly string[],
  around: number,
): Promise<Folded | undefined> {
  let folded: Folded | undefined;
  try {
    const wait = (lease.lastFoldAt ?? 0) + FOLD_INTERVAL_MS - Date.now();
    if (wait > 0) await pause(wait);
    folded = await foldOnce(kioskId, include, around);
    return folded;
  } finally {
    await releaseLease(lease, folded !== undefined);
  }
}

/**
 * Makes sure `transaction` is counted on its kiosk and in its day's figures: by a fold
 * of its own when the kiosk's lease is free, else by waiting while another run's
 * fold (which looks for it too) holds the lease. Throws when the lease stays taken
 * for WAIT_FOR_LEASE_MS, so that the trigger fails and the event is delivered again.
 */
export async function countOnKiosk(transaction: DocumentSnapshot): Promise<void> {
  const kioskId: string = transaction.get('kioskId');
  const recordedAt = transaction.get('createdAt');
  const around = recordedAt instanceof Timestamp ? recordedAt.toMillis() : Date.now();
  const deadline = Date.now() + WAIT_FOR_LEASE_MS;
  for (let current = transaction; current.exists && !isCounted(current); current = await current.ref.get()) {
    if (Date.now() > deadline)
      throw new Error(`transaction ${current.id}: the fold lease of kiosk ${kioskId} stayed taken`);
    const lease = await takeLease(kioskId);
    if (lease) await foldUnderLease(lease, kioskId, [current.id], around);
    else await pause(100 + Math.random() * 200);
  }
}

/**
 * The safety net: counts transactions recorded between `lookbackMs` and `minAgeMs`
 * ago that are still not counted on their kiosk (their trigger keeps failing, or
 * its event never came), kiosk by kiosk, each under the kiosk's lease. A kiosk whose
 * lease is held is left to its holder (and the next sweep), and so are the kiosks
 * after `budget` ran out. Safe to run at any time and any number of times: it only
 * folds, exactly once per transaction.
 */
export async function foldStaleKioskTransactions({
  minAgeMs = 2 * 60_000,
  lookbackMs = 15 * 60_000,
  budget = timeBudget(Number.POSITIVE_INFINITY),
}: { minAgeMs?: number; lookbackMs?: number; budget?: TimeBudget } = {}): Promise<{
  kiosks: number;
  transactions: number;
}> {
  const now = Date.now();
  const recorded = await transactionsCollection()
    .where('createdAt', '>=', Timestamp.fromMillis(now - lookbackMs))
    .where('createdAt', '<=', Timestamp.fromMillis(now - minAgeMs))
    .select('kioskId', 'effects.kioskCounted')
    .get();
  const stale = new Map<string, string[]>();
  for (const doc of recorded.docs) {
    if (!isCounted(doc)) stale.set(doc.get('kioskId'), [...(stale.get(doc.get('kioskId')) ?? []), doc.id]);
  }
  const outcome = { kiosks: 0, transactions: 0 };
  for (const [kioskId, ids] of stale) {
    let counted = 0;
    for (let start = 0; start < ids.length; start += MAX_FOLD) {
      const lease = await takeLease(kioskId);
      if (!lease) break;
      const batch = ids.slice(start, start + MAX_FOLD);
      counted += (await foldUnderLease(lease, kioskId, batch, now - minAgeMs))?.transactions ?? 0;
    }
    if (counted > 0) {
      outcome.kiosks += 1;
      outcome.transactions += counted;
    }
    // The kiosks left are the next sweep's (their transactions stay in its window), or the effects sweep's.
    if (budget.spent()) break;
  }
  if (stale.size > 0)
    logWarn('kiosk_stale_transactions_folded', { stale: [...stale.values()].flat().length, ...outcome });
  return outcome;
}
