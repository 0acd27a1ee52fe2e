import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { newestFirstPage } from './userPages';
import type { LedgerEntryView, RedeemedFromView } from '../model/pointsViews';
import type { LedgerKind } from '../model/vocabulary';
import { legacyBreakdown } from '../domain/promotions';
import type { BreakdownEntry } from '../model/promotionViews';

export const ledgerCollection = () => db().collection('ledger');

/** What an `earn` entry keeps of its transaction, so that a history page needs no second read. */
export interface EarnedFrom {
  id: string;
  kioskId: string;
  plasticCount: number;
  metalCount: number;
  occurredAt: Date;
  /** The transaction's breakdown (§16). */
  breakdown: BreakdownEntry[];
}

/** What a `redeem` or `refund` entry keeps of its redemption, stored as the history shows it. */
export type RedeemedFrom = RedeemedFromView;

export interface NewLedgerEntry {
  userId: string;
  kind: LedgerKind;
  /** Signed: positive adds to `currentPoints`. */
  points: number;
  /** `currentPoints` after this entry. */
  balanceAfter: number;
  transaction?: EarnedFrom;
  /** What a `redeem` or `refund` entry keeps of its redemption. */
  redemption?: RedeemedFrom;
  reason?: string;
  /** The admin who made an adjustment (their uid), or the command that opened a balance. */
  by?: string;
  /** When it happened: the commit's server time unless the writer chose one (see stagedEntryTime). */
  createdAt?: Timestamp;
}

/** A ledger/{id} document as first stored; the one place one is written out. */
export const newLedgerEntry = ({ transaction, createdAt, ...entry }: NewLedgerEntry): DocumentData => ({
  ...entry,
  ...(transaction && { transaction: { ...transaction, occurredAt: Timestamp.fromDate(transaction.occurredAt) } }),
  createdAt: createdAt ?? FieldValue.serverTimestamp(),
});

/**
 * A time for an entry staged now by a writer that answers with it, so that it need
 * not read the entry back after the commit: the service's clock, yet always after
 * `lastChange`, the user's last commit (their document's update time), which wrote
 * the entry before this one. A clock behind Firestore's, or one in the same
 * millisecond, then cannot sort the entry before one it follows in the history.
 */
export function stagedEntryTime(lastChange: Timestamp | undefined): Timestamp {
  const now = Date.now();
  const after = lastChange ? lastChange.toMillis() + 1 : 0;
  return Timestamp.fromMillis(Math.max(now, after));
}

/** An entry as `GET /user/{id}/history` shows it. */
export type { LedgerEntryView };

const iso = (value: unknown): string => (value instanceof Timestamp ? value.toDate() : new Date(0)).toISOString();

export function ledgerEntryView(snapshot: DocumentSnapshot): LedgerEntryView {
  const data = snapshot.data() ?? {};
  const transaction = data.transaction as DocumentData | undefined;
  const redemption = data.redemption as DocumentData | undefined;
  return {
    id: snapshot.id,
    kind: data.kind,
    points: data.points,
    balanceAfter: data.balanceAfter,
    createdAt: iso(data.createdAt),
    ...(transaction && {
      transaction: {
        id: transaction.id,
        kioskId: transaction.kioskId,
        plasticCount: transaction.plasticCount,
        metalCount: transaction.metalCount,
        occurredAt: iso(transaction.occurredAt),
        breakdown: transaction.breakdown ?? legacyBreakdown(data.points),
      },
    }),
    ...(redemption && {
      redemption: { id: redemption.id, rewardId: redemption.rewardId, rewardName: redemption.rewardName },
    }),
    ...(typeof data.reason === 'string' && { reason: data.reason }),
  };
}

/** One page of a user's history, newest first (see newestFirstPage). */
export const historyPage = (userId: string, limit: number, cursor: string | undefined) =>
  newestFirstPage(ledgerCollection(), userId, { limit, cursor }, ledgerEntryView);
