/**
 * Request bodies of the API, as JSON Schema. They are the reference for what each
 * endpoint accepts: types, bounds, and which fields exist (unknown fields are 400).
 */
import type { JSONSchemaType } from 'ajv';
import { KIOSK_STATUSES, type Coordinates, type KioskStatus } from '../domain/kiosk';
import type { DepositSubmission } from '../domain/deposit';
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency';
import type { StatusReport } from '../services/statusReport';
import { adjustmentBody, adminRewardBody, cancelRedemptionBody, redeemBody } from './pointsSchemas';
import { id, title } from './schemaFields';

export const MAX_ITEMS_PER_MATERIAL = 1000;

const itemCount = { type: 'integer', minimum: 0, maximum: MAX_ITEMS_PER_MATERIAL } as const;
const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;
const kioskStatus = { type: 'string', enum: KIOSK_STATUSES as unknown as KioskStatus[] } as const;
/** A kiosk's place, the same where it is set and where it is shown. */
export const coordinates: JSONSchemaType<Coordinates> = {
  type: 'object',
  properties: {
    latitude: { type: 'number', minimum: -90, maximum: 90 },
    longitude: { type: 'number', minimum: -180, maximum: 180 },
  },
  required: ['latitude', 'longitude'],
  additionalProperties: false,
};
/** FCM registration tokens are printable ASCII, ~160-200 characters; Firestore can only query values under 1,500 bytes. */
export const MAX_PUSH_TOKEN_LENGTH = 1024;
const pushToken = { type: 'string', minLength: 1, maxLength: MAX_PUSH_TOKEN_LENGTH, pattern: '^[!-~]+$' } as const;
/** The data payload's key pattern below, in words, for error messages. */
export const DATA_KEY_RULE = 'keys are 1-100 letters, digits, "_" or "-", starting with a letter';
/** FCM data payload: string values only; the whole message must stay under 4 KiB. */
const dataPayload = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_-]{0,99}$' },
  additionalProperties: { type: 'string', maxLength: 1000 },
  required: [],
  nullable: true,
} as const;

/** The status, and what the kiosk tells of itself (null: not told, except that `errorCode: null` clears it). */
export type KioskStatusBody = StatusReport;
const fillPercent = { type: 'integer', minimum: 0, maximum: 100, nullable: true } as const;
/** 1-64 printable ASCII characters, spaces included. */
const deviceText = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[ -~]+$', nullable: true } as const;
export const kioskStatusBody: JSONSchemaType<KioskStatusBody> = {
  type: 'object',
  properties: {
    status: kioskStatus,
    fillLevel: {
      type: 'object',
      properties: {
        plastic: { ...fillPercent, description: 'Percent full' },
        metal: { ...fillPercent, description: 'Percent full' },
      },
      required: [],
      additionalProperties: false,
      nullable: true,
      description: 'Percent full per bin; a bin not named keeps its last reported level',
    },
    firmwareVersion: deviceText,
    errorCode: { ...deviceText, description: 'The error the kiosk is in; null clears it' },
  },
  required: ['status'],
  additionalProperties: false,
};

/**
 * An optional field that must not be null when given. ajv's JSONSchemaType asks
 * `nullable: true` of every optional property; without it ajv refuses null, which is
 * what such a field wants, so only its type says otherwise.
 */
const optionalNeverNull = <T extends object>(schema: T) => schema as T & { nullable: true };

const depositFields = {
  kioskId: id,
  userId: id,
  plasticCount: itemCount,
  metalCount: itemCount,
  occurredAt: optionalNeverNull({
    type: 'string',
    format: 'date-time',
    maxLength: 64,
    description:
      'When the kiosk took the deposit (RFC 3339 with an offset), at most 5 minutes ahead and OFFLINE_MAX_DAYS ' +
      '(default 7) days back (a retry of a recorded deposit is answered from its record, whatever its ' +
      '`occurredAt`); absent: when the service accepts it. Never null',
  } as const),
} as const;
const depositRequired = ['kioskId', 'userId', 'plasticCount', 'metalCount'] as const;

/** The body is the deposit the service awards, as it is. */
export type TransactionBody = DepositSubmission;
export const transactionBody: JSONSchemaType<TransactionBody> = {
  type: 'object',
  properties: depositFields,
  required: [...depositRequired],
  additionalProperties: false,
};

export const MAX_BATCH_ITEMS = 100;

/** One deposit of a batch: the body of POST /kiosk/transaction with its Idempotency-Key inside. */
export type TransactionBatchItem = DepositSubmission & { idempotencyKey: string };
export const transactionBatchItem: JSONSchemaType<TransactionBatchItem> = {
  type: 'object',
  properties: {
    ...depositFields,
    idempotencyKey: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description: 'What the Idempotency-Key header is to POST /kiosk/transaction: one key, one transaction',
    },
  },
  required: [...depositRequired, 'idempotencyKey'],
  additionalProperties: false,
};

/**
 * The envelope of a batch. Its items are checked one by one (an invalid item is a
 * 400 result of its own, never a failed batch), so here each need only be an object;
 * see `itemSchemas`.
 */
export interface TransactionBatchBody {
  transactions: Record<string, unknown>[];
}
export const transactionBatchBody: JSONSchemaType<TransactionBatchBody> = {
  type: 'object',
  properties: {
    transactions: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_ITEMS,
      items: { type: 'object', required: [] },
    },
  },
  required: ['transactions'],
  additionalProperties: false,
};

/** What an operator's push says, to a topic or to one recipient. */
interface PushMessageBody {
  title: string;
  body: string;
  data?: Record<string, string>;
}
const pushMessageProperties = { title, body: text, data: dataPayload } as const;

export interface NotifyTopicBody extends PushMessageBody {
  topic: string;
}
export const notifyTopicBody: JSONSchemaType<NotifyTopicBody> = {
  type: 'object',
  properties: {
    topic: { type: 'string', minLength: 1, maxLength: 900 },
    ...pushMessageProperties,
  },
  required: ['topic', 'title', 'body'],
  additionalProperties: false,
};

export interface NotifyUserBody extends PushMessageBody {
  userId?: string;
  pushToken?: string;
}
export const notifyUserBody: JSONSchemaType<NotifyUserBody> = {
  type: 'object',
  properties: {
    userId: { ...id, nullable: true },
    pushToken: { ...pushToken, nullable: true },
    ...pushMessageProperties,
  },
  required: ['title', 'body'],
  additionalProperties: false,
};

export interface OtpEmailBody {
  email: string;
  otp: string;
}
export const otpEmailBody: JSONSchemaType<OtpEmailBody> = {
  type: 'object',
  properties: {
    email: { type: 'string', maxLength: 254, format: 'email' },
    otp: { type: 'string', pattern: '^[0-9]{4,10}$' },
  },
  required: ['email', 'otp'],
  additionalProperties: false,
};

export interface PushTokenBody {
  token: string;
}
export const pushTokenBody: JSONSchemaType<PushTokenBody> = {
  type: 'object',
  properties: { token: pushToken },
  required: ['token'],
  additionalProperties: false,
};

export interface AdminKioskBody {
  id: string;
  name: string;
  address: string;
  location: { latitude: number; longitude: number };
  openingHours?: string;
  timezone?: string;
  status?: KioskStatus;
}
export const adminKioskBody: JSONSchemaType<AdminKioskBody> = {
  type: 'object',
  properties: {
    id,
    name: title,
    address: { type: 'string', minLength: 1, maxLength: 500 },
    location: coordinates,
    openingHours: { type: 'string', minLength: 1, maxLength: 1000, nullable: true },
    timezone: { type: 'string', minLength: 1, maxLength: 100, nullable: true },
    status: { ...kioskStatus, nullable: true },
  },
  required: ['id', 'name', 'address', 'location'],
  additionalProperties: false,
};

export interface KioskKeyBody {
  label?: string;
}
export const kioskKeyBody: JSONSchemaType<KioskKeyBody> = {
  type: 'object',
  properties: { label: { type: 'string', maxLength: 200, nullable: true } },
  required: [],
  additionalProperties: false,
};

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
} as const;

export type BodySchemaName = keyof typeof bodySchemas;

/**
 * Bodies whose list items a route checks one by one against a schema of their own:
 * the API description shows each item as that schema.
 */
export const itemSchemas: Partial<Record<BodySchemaName, { list: string; item: BodySchemaName }>> = {
  transactionBatchBody: { list: 'transactions', item: 'transactionBatchItem' },
};
