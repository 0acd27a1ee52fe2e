import { FieldValue, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { byDayThenKiosk, type KioskDayFigures, type KioskDayRow } from '../domain/kioskDays';
import { utcDay } from '../domain/rewards';
import { occurredAtOf } from './transactions';

/** kioskDays/{kioskId}_{YYYY-MM-DD}: one kiosk's figures of one UTC day, kept by the transaction trigger. */
export const kioskDaysCollection = () => db().collection('kioskDays');

// The day has a fixed length, so the id stays unambiguous whatever the kiosk id holds.
export const kioskDayRef = (kioskId: string, day: string) => kioskDaysCollection().doc(`${kioskId}_${day}`);

/**
 * What one fold adds to a kioskDays document, written with `merge`, so that the
 * first fold of a day creates it (increments start from 0). Blind writes: the
 * document is never read by the writer, so it is never locked. The one place a
 * kioskDays document is written out.
 */
export const kioskDayIncrement = (kioskId: string, day: string, figures: KioskDayFigures): DocumentData => ({
  kioskId,
  day,
  transactions: FieldValue.increment(figures.transactions),
  plasticCount: FieldValue.increment(figures.plasticCount),
  metalCount: FieldValue.increment(figures.metalCount),
  points: FieldValue.increment(figures.points),
  updatedAt: FieldValue.serverTimestamp(),
});

const count = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** The day a transaction counts on: the UTC day of `occurredAt` (when the kiosk took the deposit). */
export const reportDayOf = (transaction: DocumentSnapshot): string => utcDay(occurredAtOf(transaction.data() ?? {}));

/** What one transaction adds to its kiosk's day. */
export const figuresOf = (transaction: DocumentSnapshot): KioskDayFigures => ({
  transactions: 1,
  plasticCount: count(transaction.get('plasticCount')),
  metalCount: count(transaction.get('metalCount')),
  points: count(transaction.get('pointsEarned')),
});

/** Every day from `from` to `to` (YYYY-MM-DD, both included) that has figures, of one kiosk or all, by day then kiosk. */
export async function listKioskDays(from: string, to: string, kioskId?: string): Promise<KioskDayRow[]> {
  let query = kioskDaysCollection().where('day', '>=', from).where('day', '<=', to);
  if (kioskId !== undefined) query = query.where('kioskId', '==', kioskId);
  const snapshot = await query.get();
  return snapshot.docs
    .map((doc) => ({
      kioskId: String(doc.get('kioskId')),
      day: String(doc.get('day')),
      transactions: count(doc.get('transactions')),
      plasticCount: count(doc.get('plasticCount')),
      metalCount: count(doc.get('metalCount')),
      points: count(doc.get('points')),
    }))
    .filter((row) => row.transactions > 0)
    .sort(byDayThenKiosk);
}
