import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';

/**
 * kioskFolds/{kioskId}: who may fold the kiosk's transactions into its counters and
 * daily figures now (services/kioskFold.ts), and when that was last done.
 */
export const kioskFoldsCollection = () => db().collection('kioskFolds');

export interface FoldLeaseState {
  /** The run holding the lease, while `heldUntil` is in the future. */
  holder?: string;
  heldUntil?: number;
  /** When the last fold that wrote the kiosk's documents let go of the lease (ms). */
  lastFoldAt?: number;
}

const millis = (value: unknown): number | undefined => (value instanceof Timestamp ? value.toMillis() : undefined);

export function foldLeaseFromSnapshot(snapshot: DocumentSnapshot): FoldLeaseState {
  const holder = snapshot.get('holder');
  return {
    holder: typeof holder === 'string' ? holder : undefined,
    heldUntil: millis(snapshot.get('heldUntil')),
    lastFoldAt: millis(snapshot.get('lastFoldAt')),
  };
}

/** The lease as taken by `holder` until `heldUntil`; `lastFoldAt` is kept. */
export const heldFoldLease = (holder: string, heldUntil: Date): DocumentData => ({
  holder,
  heldUntil: Timestamp.fromDate(heldUntil),
});

/** The lease let go of; `folded`: the holder wrote the kiosk's documents. */
export const releasedFoldLease = (folded: boolean): DocumentData => ({
  holder: null,
  heldUntil: null,
  ...(folded && { lastFoldAt: FieldValue.serverTimestamp() }),
});
