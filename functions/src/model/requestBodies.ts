/**
 * Request bodies of the API, declared once in TypeBox: the reference for what each
 * endpoint accepts (types, bounds, and which fields exist: unknown fields are 400).
 * validation.ts checks bodies with these very schemas, the API description states
 * them, and each body's TypeScript type is derived from its schema (`Static`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject, emailAddress, id, nullable, stringEnum, title } from './fields';
import {
  MAX_ADJUSTMENT_POINTS,
  MAX_ADJUSTMENT_REASON_LENGTH,
  MAX_BATCH_ITEMS,
  MAX_ITEMS_PER_MATERIAL,
  IDEMPOTENCY_KEY_PATTERN,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  DEFAULT_VOUCHER_VALID_DAYS,
  MAX_REWARD_COST,
  MAX_REWARD_STOCK,
  MAX_VOUCHER_VALID_DAYS,
} from './limits';
import { KIOSK_STATUSES, REWARD_KINDS } from './vocabulary';
import { WEBHOOK_EVENT_TYPES } from './webhookEventTypes';
import { promotionBody, simulateBody } from './promotionViews';
import { holdDecisionBody, suspensionBody } from './trustViews';
import { claimBody } from './claimViews';

const itemCount = Type.Integer({ minimum: 0, maximum: MAX_ITEMS_PER_MATERIAL });
const text = Type.String({ minLength: 1, maxLength: 2000 });
const kioskStatus = stringEnum(KIOSK_STATUSES);

/** A kiosk's place, the same where it is set and where it is shown. */
export const coordinates = closedObject({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
});
export type Coordinates = Static<typeof coordinates>;

/** FCM registration tokens are printable ASCII, ~160-200 characters; Firestore can only query values under 1,500 bytes. */
export const MAX_PUSH_TOKEN_LENGTH = 1024;
const pushToken = Type.String({ minLength: 1, maxLength: MAX_PUSH_TOKEN_LENGTH, pattern: '^[!-~]+$' });
/** The data payload's key pattern below, in words, for error messages. */
export const DATA_KEY_RULE = 'keys are 1-100 letters, digits, "_" or "-", starting with a letter';
/** FCM data payload: string values only; the whole message must stay under 4 KiB. (TypeBox's records key by patterns.) */
const dataPayload = Type.Unsafe<Record<string, string> | null>({
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_-]{0,99}$' },
  additionalProperties: { type: 'string', maxLength: 1000 },
  nullable: true,
});

const fillPercent = nullable(Type.Integer({ minimum: 0, maximum: 100 }));
/** 1-64 printable ASCII characters, spaces included. */
const deviceText = Type.String({ minLength: 1, maxLength: 64, pattern: '^[ -~]+$' });
/** The status, and what the kiosk tells of itself (null: not told, except that `errorCode: null` clears it). */
export const kioskStatusBody = closedObject({
  status: kioskStatus,
  fillLevel: Type.Optional(
    nullable(
      closedObject(
        {
          plastic: Type.Optional({ ...fillPercent, description: 'Percent full' }),
          metal: Type.Optional({ ...fillPercent, description: 'Percent full' }),
        },
        { description: 'Percent full per bin; a bin not named keeps its last reported level' },
      ),
    ),
  ),
  firmwareVersion: Type.Optional(nullable(deviceText)),
  errorCode: Type.Optional(nullable({ ...deviceText, description: 'The error the kiosk is in; null clears it' })),
});
export type KioskStatusBody = Static<typeof kioskStatusBody>;

const depositFields = {
  kioskId: id,
  userId: nullable({
    ...id,
    description: 'Who deposited; null: the recycler did not identify, and gets a claim code instead (§18)',
  }),
  plasticCount: itemCount,
  metalCount: itemCount,
  // Optional, and never null: ajv refuses null where no `nullable` says otherwise.
  occurredAt: Type.Optional(
    Type.String({
      format: 'date-time',
      maxLength: 64,
      description:
        'When the kiosk took the deposit (RFC 3339 with an offset), at most 5 minutes ahead and OFFLINE_MAX_DAYS ' +
        '(default 7) days back (a retry of a recorded deposit is answered from its record, whatever its ' +
        '`occurredAt`); absent: when the service accepts it. Never null',
    }),
  ),
};

/** The deposit the service awards, as it is (domain/deposit.ts's DepositSubmission). */
export const transactionBody = closedObject(depositFields);
export type TransactionBody = Static<typeof transactionBody>;

/** One deposit of a batch: the body of POST /kiosk/transaction with its Idempotency-Key inside. */
export const transactionBatchItem = closedObject({
  ...depositFields,
  idempotencyKey: Type.String({
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
    pattern: IDEMPOTENCY_KEY_PATTERN,
    description: 'What the Idempotency-Key header is to POST /kiosk/transaction: one key, one transaction',
  }),
});
export type TransactionBatchItem = Static<typeof transactionBatchItem>;

/**
 * The envelope of a batch. Its items are checked one by one (an invalid item is a
 * 400 result of its own, never a failed batch), so here each need only be an object;
 * see `itemSchemas`.
 */
export const transactionBatchBody = closedObject({
  transactions: Type.Array(Type.Unsafe<Record<string, unknown>>({ type: 'object' }), {
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
  }),
});
export type TransactionBatchBody = Static<typeof transactionBatchBody>;

/** What an operator's push says, to a topic or to one recipient. */
const pushMessageFields = { title, body: text, data: Type.Optional(dataPayload) };

export const notifyTopicBody = closedObject({
  topic: Type.String({ minLength: 1, maxLength: 900 }),
  ...pushMessageFields,
});
export type NotifyTopicBody = Static<typeof notifyTopicBody>;

export const notifyUserBody = closedObject({
  userId: Type.Optional(nullable(id)),
  pushToken: Type.Optional(nullable(pushToken)),
  ...pushMessageFields,
});
export type NotifyUserBody = Static<typeof notifyUserBody>;

export const otpEmailBody = closedObject({
  email: emailAddress,
  otp: Type.String({ pattern: '^[0-9]{4,10}$' }),
});
export type OtpEmailBody = Static<typeof otpEmailBody>;

export const pushTokenBody = closedObject({ token: pushToken });
export type PushTokenBody = Static<typeof pushTokenBody>;

export const adminKioskBody = closedObject({
  id,
  name: title,
  address: Type.String({ minLength: 1, maxLength: 500 }),
  location: coordinates,
  openingHours: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 1000 }))),
  timezone: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  // `nullable` keeps ajv's answer to null an enum error ("must be one of"); the enum still refuses it.
  status: Type.Optional({ ...kioskStatus, nullable: true }),
});
export type AdminKioskBody = Static<typeof adminKioskBody>;

export const kioskKeyBody = closedObject({ label: Type.Optional(nullable(Type.String({ maxLength: 200 }))) });
export type KioskKeyBody = Static<typeof kioskKeyBody>;

export const adjustmentBody = closedObject({
  points: Type.Integer({
    minimum: -MAX_ADJUSTMENT_POINTS,
    maximum: MAX_ADJUSTMENT_POINTS,
    not: { const: 0 },
    description: 'Added to both balances (negative: taken from both); not 0',
  }),
  reason: Type.String({
    minLength: 1,
    maxLength: MAX_ADJUSTMENT_REASON_LENGTH,
    pattern: '\\S',
    description: "Why, for the user's history and the books",
  }),
});
export type AdjustmentBody = Static<typeof adjustmentBody>;

/** A reward as POST /admin/rewards (or the CLI) gives it: absent fields are kept on an update. */
export const adminRewardBody = closedObject({
  id,
  name: title,
  description: Type.Optional(nullable(Type.String({ maxLength: 2000 }))),
  cost: Type.Integer({ minimum: 1, maximum: MAX_REWARD_COST, description: 'Points' }),
  kind: stringEnum(REWARD_KINDS),
  stock: Type.Optional(
    nullable(Type.Integer({ minimum: 0, maximum: MAX_REWARD_STOCK, description: 'null: unlimited' })),
  ),
  active: Type.Optional(nullable(Type.Boolean())),
  // Vouchers (§12)
  partnerId: Type.Optional(nullable({ ...id, description: 'The partner who honours its vouchers; null: any partner' })),
  validDays: Type.Optional(
    nullable(
      Type.Integer({
        minimum: 1,
        maximum: MAX_VOUCHER_VALID_DAYS,
        description: `Days a voucher is honoured after it is issued (default ${DEFAULT_VOUCHER_VALID_DAYS})`,
      }),
    ),
  ),
});
export type AdminRewardBody = Static<typeof adminRewardBody>;

export const redeemBody = closedObject({ rewardId: id });
export type RedeemBody = Static<typeof redeemBody>;

export const cancelRedemptionBody = closedObject({
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
});
export type CancelRedemptionBody = Static<typeof cancelRedemptionBody>;

// Webhooks (contract §13).
export const webhookBody = closedObject({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'https (http only to 127.0.0.1 or localhost on the emulators); never a private address',
  }),
  events: Type.Array(stringEnum(WEBHOOK_EVENT_TYPES), {
    minItems: 1,
    maxItems: WEBHOOK_EVENT_TYPES.length,
    description: 'The event types to deliver',
  }),
  description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
  partnerId: Type.Optional(
    nullable({
      ...id,
      description:
        "A partner's webhook: it takes only redemption.used and redemption.cancelled of that partner's rewards, " +
        "without the user's id (404 for an unknown partner)",
    }),
  ),
});
export type WebhookBody = Static<typeof webhookBody>;
// Partners (§12)
export const partnerBody = closedObject({ id, name: title });
export type PartnerBody = Static<typeof partnerBody>;

export const bodySchemas = {
  kioskStatusBody,
  transactionBody,
  transactionBatchBody,
  transactionBatchItem,
  notifyTopicBody,
  notifyUserBody,
  otpEmailBody,
  pushTokenBody,
  adminKioskBody,
  kioskKeyBody,
  adjustmentBody,
  adminRewardBody,
  redeemBody,
  cancelRedemptionBody,
  // Webhooks (contract §13).
  webhookBody,
  // Partners (§12); a partner key's body is a kiosk key's
  partnerBody,
  // Promotions (contract §16).
  promotionBody,
  simulateBody,
  // Trust (contract §17).
  holdDecisionBody,
  suspensionBody,
  // Claim codes (§18).
  claimBody,
} as const;

export type BodySchemaName = keyof typeof bodySchemas;

/**
 * Bodies whose list items a route checks one by one against a schema of their own:
 * the API description shows each item as that schema.
 */
export const itemSchemas: Partial<Record<BodySchemaName, { list: string; item: BodySchemaName }>> = {
  transactionBatchBody: { list: 'transactions', item: 'transactionBatchItem' },
};
