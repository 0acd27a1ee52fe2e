/**
 * Response bodies shared by several routes, as JSON Schema, with an example of each:
 * the API description (GET /openapi.json) names them as its components.schemas, and
 * every route's own response schema is built from them. Plain objects, cheap to load.
 */
import type { UserView } from '../data/users';
import type { TransactionView } from '../data/transactions';
import { KIOSK_STATUSES, type KioskStatus, type KioskView } from '../domain/kiosk';
import { coordinates } from './schemas';
import { count, id } from './schemaFields';
import type { ErrorResponse, JsonSchema } from './types';

/**
 * An object schema with a property for every member of `T` (not ajv's JSONSchemaType:
 * it types `nullable` only on optional members, and views have members that may be null).
 */
type ObjectSchemaOf<T> = {
  type: 'object';
  description: string;
  properties: { [member in keyof T]-?: JsonSchema };
  required: (keyof T)[];
  additionalProperties: false;
};

/**
 * The schema of a view: a property for each of its members, every one required but
 * those named `optional`, and no other property. `required` is derived, so it cannot
 * miss a member the properties name.
 */
export function objectSchemaOf<T>(
  description: string,
  properties: ObjectSchemaOf<T>['properties'],
  { optional = [] }: { optional?: readonly (keyof T)[] } = {},
): ObjectSchemaOf<T> {
  const members = Object.keys(properties) as (keyof T)[];
  return {
    type: 'object',
    description,
    properties,
    required: members.filter((member) => !optional.includes(member)),
    additionalProperties: false,
  };
}

/** The one error body: a sentence for people, a code for programs. */
export const errorSchema = objectSchemaOf<{ error: string; code: string }>(
  'Every error answer. `error` is for people (a 400 names the field); `code` is for programs.',
  {
    error: { type: 'string', description: 'What went wrong, in one sentence' },
    code: { type: 'string', description: 'Machine-readable; each response lists the codes it can carry' },
  },
);

export const kioskSchema = objectSchemaOf<KioskView>(
  'A kiosk as anyone may see it (GET /kiosk/{kioskId}, GET /kiosks).',
  {
    id,
    name: { type: 'string' },
    address: { type: 'string' },
    status: {
      type: 'string',
      enum: KIOSK_STATUSES as unknown as KioskStatus[],
      description: 'Only an `available` kiosk accepts transactions',
    },
    plasticCount: { ...count, description: 'Plastic items collected since the kiosk was set up' },
    metalCount: { ...count, description: 'Metal items collected since the kiosk was set up' },
    lastUpdated: { type: 'string', format: 'date-time', description: 'Last status report or deposit, ISO 8601 UTC' },
    location: coordinates,
    openingHours: { type: 'string', description: 'OpenStreetMap `opening_hours` syntax, e.g. `Mo-Fr 08:00-20:00`' },
    timezone: { type: 'string', description: 'IANA time zone the opening hours are read in' },
    openNow: { type: 'boolean', description: 'Open at the time of the answer, by its opening hours and time zone' },
    lastSeenAt: {
      type: 'string',
      format: 'date-time',
      nullable: true,
      description:
        'When a request with one of its API keys last reached the service, ISO 8601 UTC (recorded at most once a ' +
        'minute); null: never',
    },
    online: { type: 'boolean', description: 'Seen within the last KIOSK_ONLINE_MINUTES (15 by default)' },
  },
);

export const nearbyKioskSchema = objectSchemaOf<KioskView & { distanceKm: number }>(
  'A kiosk found by a search around a point (GET /kiosks?near=): its view and its distance.',
  {
    ...kioskSchema.properties,
    distanceKm: {
      type: 'number',
      minimum: 0,
      description: 'Great-circle distance from the point searched around, in kilometres to 2 decimals',
    },
  },
);

export const userSchema = objectSchemaOf<UserView>(
  'A user as the app shows them: exactly these fields (never the push token itself).',
  {
    id: { ...id, description: 'The Firebase Auth uid' },
    name: { type: 'string' },
    currentPoints: { ...count, description: 'Points the user can spend' },
    totalPoints: { ...count, description: 'Points ever earned; decides the rank' },
    recycledCount: { ...count, description: 'Items ever deposited' },
    rank: {
      type: 'string',
      description: 'Derived from totalPoints under the thresholds configured now, e.g. `Silver`',
    },
    hasPushToken: { type: 'boolean', description: 'Whether a device token is registered for pushes' },
  },
);

export const transactionSchema = objectSchemaOf<TransactionView>(
  'A recorded transaction, as the kiosk that submitted it is told.',
  {
    id: { ...id, description: 'The transaction id; the same on every replay of one Idempotency-Key' },
    userId: id,
    kioskId: id,
    plasticCount: count,
    metalCount: count,
    totalItems: count,
    pointsEarned: { ...count, description: 'The points awarded: all the items are worth, or what the daily cap left' },
    capped: { type: 'boolean', description: "The daily cap of the deposit's UTC day reduced `pointsEarned`" },
    newBalance: { ...count, description: "The user's spendable points after this transaction" },
    occurredAt: {
      type: 'string',
      format: 'date-time',
      description: 'When the deposit was made (the `occurredAt` sent, else when it was accepted), ISO 8601 UTC',
    },
  },
);

export const pushResponseSchema = objectSchemaOf<{ messageId: string }>(
  "The push provider's answer (on the emulator suite, the id of the pushOutbox document).",
  { messageId: { type: 'string' } },
);

/** `{ success: true, ... }`, the body of every success of the contract's endpoints; `optional` may be absent. */
export function successBody(
  required: Readonly<Record<string, JsonSchema>>,
  optional: Readonly<Record<string, JsonSchema>> = {},
): JsonSchema {
  return {
    type: 'object',
    properties: { success: { type: 'boolean', const: true }, ...required, ...optional },
    required: ['success', ...Object.keys(required)],
    additionalProperties: false,
  };
}

export const kioskExample: KioskView = {
  id: 'berlin-alexanderplatz',
  name: 'Berlin Alexanderplatz',
  address: 'Alexanderplatz 1, 10178 Berlin, Germany',
  status: 'available',
  plasticCount: 1520,
  metalCount: 845,
  lastUpdated: '2026-11-23T09:30:00.000Z',
  location: { latitude: 52.521918, longitude: 13.413215 },
  openingHours: '24/7',
  timezone: 'Europe/Berlin',
  openNow: true,
  lastSeenAt: '2026-11-23T09:58:00.000Z',
  online: true,
};

export const userExample: UserView = {
  id: 'demo-alice',
  name: 'Alice Demo',
  currentPoints: 1250,
  totalPoints: 1250,
  recycledCount: 60,
  rank: 'Silver',
  hasPushToken: true,
};

export const transactionExample: TransactionView = {
  id: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
  userId: 'demo-alice',
  kioskId: 'berlin-alexanderplatz',
  plasticCount: 3,
  metalCount: 2,
  totalItems: 5,
  pointsEarned: 70,
  capped: false,
  newBalance: 1320,
  occurredAt: '2026-11-23T08:12:44.000Z',
};

/**
 * What a route that writes answers when contention on what it writes (a burst on one
 * user, one reward, one kiosk) did not clear in time: errors.ts' `overloaded`.
 */
export const overloadedAnswer: ErrorResponse = {
  description:
    'The service is overloaded: what this request writes was contended for too long. Nothing was written; send ' +
    'the request again as it is after `Retry-After` seconds',
  codes: ['overloaded'],
  headers: ['Retry-After'],
};
