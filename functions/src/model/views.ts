/**
 * Response bodies shared by several routes, declared once in TypeBox: the API
 * description names them as its components.schemas (openapi.ts), routes build their
 * answers from them, and the views the service returns take their types from them
 * (e.g. domain/kiosk.ts's KioskView is `Static<typeof Kiosk>`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject, count, id, nullable, stringEnum } from './fields';
import { coordinates } from './requestBodies';
import { KIOSK_STATUSES } from './vocabulary';
import { breakdownField } from './promotionViews';
import { HOLD_REASONS, TRANSACTION_STATUSES } from './trustVocabulary';
import { transactionClaimFields } from './claimViews';

/** The one error body: a sentence for people, a code for programs. */
export const ErrorBody = closedObject(
  {
    error: Type.String({ description: 'What went wrong, in one sentence' }),
    code: Type.String({ description: 'Machine-readable; each response lists the codes it can carry' }),
  },
  {
    // Not "Error" or "ApiError": client generators keep those names for their own types.
    $id: 'ErrorBody',
    description: 'Every error answer. `error` is for people (a 400 names the field); `code` is for programs.',
  },
);

const kioskFields = {
  id,
  name: Type.String(),
  address: Type.String(),
  status: stringEnum(KIOSK_STATUSES, { description: 'Only an `available` kiosk accepts transactions' }),
  plasticCount: { ...count, description: 'Plastic items collected since the kiosk was set up' },
  metalCount: { ...count, description: 'Metal items collected since the kiosk was set up' },
  lastUpdated: Type.String({ format: 'date-time', description: 'Last status report or deposit, ISO 8601 UTC' }),
  location: coordinates,
  openingHours: Type.String({ description: 'OpenStreetMap `opening_hours` syntax, e.g. `Mo-Fr 08:00-20:00`' }),
  timezone: Type.String({ description: 'IANA time zone the opening hours are read in' }),
  openNow: Type.Boolean({ description: 'Open at the time of the answer, by its opening hours and time zone' }),
  lastSeenAt: nullable(
    Type.String({
      format: 'date-time',
      description:
        'When a request with one of its API keys last reached the service, ISO 8601 UTC (recorded at most once a ' +
        'minute); null: never',
    }),
  ),
  online: Type.Boolean({ description: 'Seen within the last KIOSK_ONLINE_MINUTES (15 by default)' }),
};

export const Kiosk = closedObject(kioskFields, {
  $id: 'Kiosk',
  description: 'A kiosk as anyone may see it (GET /kiosk/{kioskId}, GET /kiosks).',
});
export type KioskView = Static<typeof Kiosk>;

export const NearbyKiosk = closedObject(
  {
    ...kioskFields,
    distanceKm: Type.Number({
      minimum: 0,
      description: 'Great-circle distance from the point searched around, in kilometres to 2 decimals',
    }),
  },
  {
    $id: 'NearbyKiosk',
    description: 'A kiosk found by a search around a point (GET /kiosks?near=): its view and its distance.',
  },
);
export type NearbyKioskView = Static<typeof NearbyKiosk>;

export const User = closedObject(
  {
    id: { ...id, description: 'The Firebase Auth uid' },
    name: Type.String(),
    currentPoints: { ...count, description: 'Points the user can spend' },
    totalPoints: { ...count, description: 'Points ever earned; decides the rank' },
    recycledCount: { ...count, description: 'Items ever deposited' },
    rank: Type.String({ description: 'Derived from totalPoints under the thresholds configured now, e.g. `Silver`' }),
    hasPushToken: Type.Boolean({ description: 'Whether a device token is registered for pushes' }),
    heldPoints: { ...count, description: "The sum of the user's held points, waiting for review (contract §17)" },
    suspended: Type.Boolean({ description: "An operator suspended the user: every deposit's points are held" }),
    expiringPoints: nullable(
      closedObject(
        {
          points: { ...count, description: 'How many of `currentPoints` expire then' },
          expiresAt: Type.String({
            format: 'date-time',
            description:
              'When they expire, ISO 8601 UTC: 00:00 of the day after the last day they are valid (the last day of ' +
              'the month `pointsExpireAfterMonths` after the month they were added), and never earlier than 30 days ' +
              'after that setting was set or lowered. Never in the past: points past their date are no longer shown ' +
              'here, and are written off before anything is spent',
          }),
        },
        {
          description: 'The next date on which some of the points expire; null: none do (expiry is off, or no points)',
        },
      ),
    ),
  },
  { $id: 'User', description: 'A user as the app shows them: exactly these fields (never the push token itself).' },
);
export type UserView = Static<typeof User>;

export const Transaction = closedObject(
  {
    id: { ...id, description: 'The transaction id; the same on every replay of one Idempotency-Key' },
    userId: nullable({ ...id, description: 'Null: an anonymous deposit not claimed yet (§18)' }),
    kioskId: id,
    plasticCount: count,
    metalCount: count,
    totalItems: count,
    pointsEarned: {
      ...count,
      description:
        'The points awarded: all the items are worth, or what the daily cap left (unclaimed: what the deposit is ' +
        'worth; the daily cap of its claimer applies when it is claimed)',
    },
    capped: Type.Boolean({ description: "The daily cap of the deposit's UTC day reduced `pointsEarned`" }),
    newBalance: nullable({
      ...count,
      description: "The user's spendable points after this transaction; null while it is unclaimed",
    }),
    occurredAt: Type.String({
      format: 'date-time',
      description: 'When the deposit was made (the `occurredAt` sent, else when it was accepted), ISO 8601 UTC',
    }),
    // Promotions (contract §16).
    breakdown: breakdownField,
    status: stringEnum(TRANSACTION_STATUSES, {
      description:
        "`awarded`: the points are credited; `held`: they wait for an operator's review (contract §17), " +
        '`newBalance` is the balance before and `pointsEarned` what a release credits; `unclaimed`: an anonymous ' +
        'deposit (`userId` null) whose points wait for a claim with its code (§18)',
    }),
    holdReasons: Type.Array(stringEnum(HOLD_REASONS), {
      description: 'Every rule a held deposit tripped; empty when awarded at once',
    }),
    // Claim codes (contract §18).
    ...transactionClaimFields,
  },
  { $id: 'Transaction', description: 'A recorded transaction, as the kiosk that submitted it is told.' },
);
export type TransactionView = Static<typeof Transaction>;

const pushNotification = Type.Boolean({ description: 'A push to the user was queued (they have a device token)' });

/** `{ transaction, pushNotification }`: what POST /kiosk/transaction answers, alone or per batch item. */
export const depositAnswerFields = { transaction: Transaction, pushNotification };

/** One item's result in a batch: what POST /kiosk/transaction would have answered it alone. */
export const BatchResult = closedObject({
  idempotencyKey: nullable(
    Type.String({ description: "The item's key as sent (null when it sent none that is text)" }),
  ),
  status: Type.Unsafe<number>({
    type: 'integer',
    enum: [200, 400, 403, 404, 409, 422, 500, 503],
    description: 'What POST /kiosk/transaction would have answered this item alone',
  }),
  transaction: Type.Optional(Transaction),
  pushNotification: Type.Optional(pushNotification),
  replayed: Type.Optional(
    Type.Boolean({ description: 'The key was already used: this is the original answer (Idempotent-Replayed)' }),
  ),
  error: Type.Optional(Type.String({ description: 'Why the item failed, in one sentence' })),
  code: Type.Optional(Type.String({ description: 'The error code the single endpoint would have answered' })),
});
export type BatchResultView = Static<typeof BatchResult>;

export const PushResponse = closedObject(
  { messageId: Type.String() },
  {
    $id: 'PushResponse',
    description: "The push provider's answer (on the emulator suite, the id of the pushOutbox document).",
  },
);

/** `{ message, pushResponse }`: what the push routes answer. */
export const pushAnswerFields = { message: Type.String(), pushResponse: PushResponse };
