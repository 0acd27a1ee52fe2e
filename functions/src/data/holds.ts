import { FieldValue, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, type StagedWrites } from '../adapters/firestore';
import { effectsPending } from './pendingEffects';
import { newestFirstPageOf } from './userPages';
import type { HoldView } from '../model/trustViews';
import type { HoldReason, HoldResolution } from '../model/trustVocabulary';

/**
 * holds/{transactionId}: a held deposit's review (contract §17), one per held
 * transaction, under its id; open while `resolution` is null. No client reads them.
 */
export const holdsCollection = () => db().collection('holds');

/**
 * holdDecisions/{transactionId}: a release or a rejection, created in the commit that
 * settles the hold, once; its trigger tells the user (notification and push).
 */
export const holdDecisionsCollection = () => db().collection('holdDecisions');

export interface NewHold {
  transactionId: string;
  userId: string;
  kioskId: string;
  points: number;
  reasons: HoldReason[];
  occurredAt: Date;
  heldAt: Date;
}

/** A holds/{transactionId} document as first stored (open); the one place one is written out. */
export const newHold = ({ userId, kioskId, points, reasons, occurredAt, heldAt }: NewHold): DocumentData => ({
  userId,
  kioskId,
  points,
  reasons,
  occurredAt: Timestamp.fromDate(occurredAt),
  heldAt: Timestamp.fromDate(heldAt),
  // The paging order (data/userPages.ts): the commit's time.
  createdAt: FieldValue.serverTimestamp(),
  resolution: null,
  resolvedAt: null,
  reason: null,
  by: null,
});

/** An open hold as the API shows it, from what was staged (its document is not read back). */
export const openHoldView = (hold: NewHold): HoldView => ({
  transactionId: hold.transactionId,
  userId: hold.userId,
  kioskId: hold.kioskId,
  points: hold.points,
  reasons: hold.reasons,
  occurredAt: hold.occurredAt.toISOString(),
  heldAt: hold.heldAt.toISOString(),
  resolvedAt: null,
  resolution: null,
  reason: null,
  by: null,
});

const iso = (value: unknown): string | null => (value instanceof Timestamp ? value.toDate().toISOString() : null);

export function holdView(snapshot: DocumentSnapshot): HoldView {
  const data = snapshot.data() ?? {};
  return {
    transactionId: snapshot.id,
    userId: String(data.userId),
    kioskId: String(data.kioskId),
    points: Number(data.points ?? 0),
    reasons: Array.isArray(data.reasons) ? data.reasons : [],
    occurredAt: iso(data.occurredAt) ?? new Date(0).toISOString(),
    heldAt: iso(data.heldAt) ?? new Date(0).toISOString(),
    resolvedAt: iso(data.resolvedAt),
    resolution: data.resolution ?? null,
    reason: data.reason ?? null,
    by: data.by ?? null,
  };
}

/** The update that settles a hold, and its view after it. */
export function settledHold(
  before: HoldView,
  decision: { resolution: HoldResolution; reason: string; by: string; at: Date },
): { update: DocumentData; view: HoldView } {
  const { resolution, reason, by, at } = decision;
  return {
    update: { resolution, reason, by, resolvedAt: Timestamp.fromDate(at) },
    view: { ...before, resolution, reason, by, resolvedAt: at.toISOString() },
  };
}

/** What a decision tells its user; the trigger of holdDecisions reads it. */
export interface HoldDecision {
  userId: string;
  kioskId: string;
  resolution: HoldResolution;
  points: number;
  /** The user's balance after the decision. */
  newBalance: number;
}

export function stageHoldDecision(writes: StagedWrites, transactionId: string, decision: HoldDecision): void {
  writes.create(holdDecisionsCollection().doc(transactionId), {
    ...decision,
    createdAt: FieldValue.serverTimestamp(),
    ...effectsPending,
  });
}

/** One page of holds, newest first (open ones only with `open`), as GET /admin/holds shows them. */
export const holdsPage = (open: boolean, limit: number, cursor: string | undefined) =>
  newestFirstPageOf(
    holdsCollection(),
    open ? holdsCollection().where('resolution', '==', null) : holdsCollection(),
    { limit, cursor },
    holdView,
  );
