import { badRequest } from '../errors';
import type { TransactionBody } from '../model/requestBodies';
import { assertDocumentId } from './ids';
import { utcDay } from './rewards';

/** A kiosk clock running a little ahead is tolerated; more is a clock to fix. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** A deposit as a kiosk submits it, alone or in a batch: the body its schema accepts. */
export type DepositSubmission = TransactionBody;

/** A submission that passed every check, with the instant it happened and the Idempotency-Key it came with. */
export interface Deposit extends DepositSubmission {
  idempotencyKey?: string;
  happenedAt: Date;
}

/**
 * The checks a deposit passes beyond its schema (which already holds the types,
 * count bounds and RFC 3339 syntax): ids Firestore can store, at least one item, and
 * an `occurredAt` that is an instant. Whether that instant is still accepted is
 * assertInOfflineWindow's to say, asked only of a deposit not recorded yet.
 */
export function assertDeposit(submission: DepositSubmission & { idempotencyKey?: string }, now: Date): Deposit {
  assertDocumentId(submission.kioskId, 'kioskId');
  // Null: an anonymous deposit (§18); a missing userId is refused by the schema.
  if (submission.userId !== null) assertDocumentId(submission.userId, 'userId');
  if (submission.plasticCount + submission.metalCount === 0) {
    throw badRequest('plasticCount and metalCount: a transaction needs at least one item');
  }
  if (submission.occurredAt === undefined) return { ...submission, happenedAt: now };
  const happenedAt = new Date(submission.occurredAt);
  // The schema's date-time syntax admits a leap second (":60"), which Date cannot represent.
  if (Number.isNaN(happenedAt.getTime())) throw badRequest('occurredAt must be a valid RFC 3339 date-time');
  return { ...submission, happenedAt };
}

/**
 * A new deposit's `occurredAt` is no more than 5 minutes ahead and at most
 * `offlineMaxDays` back. A retry of a recorded deposit is answered from its record
 * instead, however far the window has moved since.
 */
export function assertInOfflineWindow({ happenedAt }: Deposit, now: Date, offlineMaxDays: number): void {
  if (happenedAt.getTime() > now.getTime() + MAX_CLOCK_AHEAD_MS) {
    throw badRequest('occurredAt must not be more than 5 minutes in the future');
  }
  if (happenedAt.getTime() < now.getTime() - offlineMaxDays * DAY_MS) {
    throw badRequest(`occurredAt must not be more than ${offlineMaxDays} days in the past`);
  }
}

/** The first UTC day a deposit may still arrive for: earlier days' earnings can be forgotten. */
export const oldestAcceptedDay = (now: Date, offlineMaxDays: number): string =>
  utcDay(new Date(now.getTime() - offlineMaxDays * DAY_MS));
