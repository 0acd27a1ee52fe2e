/**
 * Claim codes (contract §18). Two collections, neither readable by a client:
 * - `claimCodes/{sha256 of the code}`: which transaction a code belongs to, created
 *   with the anonymous deposit, so one read finds a code (never a query), and the
 *   code itself is no document id (ids show up in logs and consoles);
 * - `claims/{transactionId}`: the claim itself, created in the commit that awards the
 *   transaction to its claimer: who claimed it and under which request. At most one
 *   per transaction, and its creation is what tells the claimer (triggers/claimCreated.ts).
 * A claim sent with an Idempotency-Key also records that key, `requestRecords/{id}`
 * (data/requestRecords.ts), so the key names one claim forever.
 */
import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';
import type { TransactionStatus } from '../model/trustVocabulary';
import { transactionsCollection } from './transactions';
import type { BreakdownEntry } from '../model/promotionViews';

export const claimCodesCollection = () => db().collection('claimCodes');
export const claimsCollection = () => db().collection('claims');

/** The claimCodes document of a code as stored (normalised). */
export const claimCodeRef = (code: string) => claimCodesCollection().doc(sha256Hex(`claim-code:${code}`));

/**
 * What a claim needs of its anonymous deposit, none of which changes while it is
 * unclaimed: kept on the code's entry too, so a claim reads the entry and, with the
 * user, the transaction (its status), and nothing else.
 */
export interface ClaimedDeposit {
  transactionId: string;
  kioskId: string;
  plasticCount: number;
  metalCount: number;
  occurredAt: Date;
  /** What the deposit was worth when recorded (§16), before its claimer's daily cap. */
  breakdown: BreakdownEntry[];
}

/** A claimCodes document: the anonymous transaction behind the code. */
export const newClaimCodeEntry = ({ occurredAt, ...deposit }: ClaimedDeposit): DocumentData => ({
  ...deposit,
  occurredAt: Timestamp.fromDate(occurredAt),
});

/** The deposit behind a code, from its entry; undefined for no entry. */
export function claimedDepositOf(entry: DocumentSnapshot): ClaimedDeposit | undefined {
  const data = entry.data();
  if (!data) return undefined;
  return {
    transactionId: data.transactionId,
    kioskId: data.kioskId,
    plasticCount: data.plasticCount,
    metalCount: data.metalCount,
    occurredAt: (data.occurredAt as Timestamp).toDate(),
    breakdown: data.breakdown,
  };
}

/**
 * The request record a user's Idempotency-Key names for claims, forever; led by the
 * kind of request, so it is never an adjustment's or a redemption's id.
 */
export const keyedClaimRecordId = (userId: string, key: string): string =>
  sha256Hex(JSON.stringify(['claim', userId, key]));

export interface NewClaim {
  userId: string;
  /** Chosen once per call: a call that finds its own commit (its answer lost) is not refused as a second claim. */
  submissionId: string;
  idempotencyKey: string | null;
}

/** A claims/{transactionId} document as first stored; the one place one is written out. */
export const newClaim = (claim: NewClaim): DocumentData => ({ ...claim, claimedAt: FieldValue.serverTimestamp() });

/**
 * How many of a kiosk's deposits are still unclaimed (expired ones included): one
 * count aggregation, served by the single-field indexes of `kioskId` and `status`.
 */
export async function unclaimedCountOf(kioskId: string): Promise<number> {
  const unclaimed = await transactionsCollection()
    .where('kioskId', '==', kioskId)
    .where('status', '==', 'unclaimed' satisfies TransactionStatus)
    .count()
    .get();
  return unclaimed.data().count;
}
