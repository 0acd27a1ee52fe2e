/**
 * What the API description states once for many operations: the credentials each
 * kind of caller sends and what checking them can answer, the answers of the
 * protocol itself (api.ts, router.ts), the response headers that carry meaning, and
 * the path ids.
 */
import { Type } from '@sinclair/typebox';
import type { Access, ErrorResponse, ResponseHeader } from './operation';
import { toDocumentSchema, type Json } from './documentSchema';
import { MAX_BODY_BYTES, MAX_ID_LENGTH, IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from '../../model/limits';

/** What a credential check of each kind can answer, besides letting the caller in. */
export const SECURITY: Record<Exclude<Access, 'public'>, { requirement: Json; note: string }> = {
  kiosk: { requirement: { kioskApiKey: [] }, note: "The kiosk's own API key (`X-API-Key`)." },
  user: {
    requirement: { firebaseIdToken: [] },
    note: 'A Firebase ID token of that user, or of an admin (`Authorization: Bearer`).',
  },
  admin: { requirement: { firebaseIdToken: ['admin'] }, note: 'A Firebase ID token with the `admin` claim.' },
  partner: { requirement: { partnerApiKey: [] }, note: "The partner's own API key (`X-API-Key`)." },
};

/** One answer that a status of an operation stands for; several are merged into one response. */
export interface Contribution extends Omit<ErrorResponse, 'headers'> {
  /** Shared answers are components.responses: referenced when they stand alone. */
  name?: string;
  headers?: readonly (ResponseHeader | 'Allow')[];
}

const idTokenUnavailable: Contribution = {
  name: 'SignInUnavailable',
  description:
    "The ID token could not be checked right now (Google's keys or the Auth backend out of reach); try again " +
    'after `Retry-After` seconds',
  codes: ['auth-unavailable'],
  headers: ['Retry-After'],
};

export const CREDENTIAL_ANSWERS: Record<Exclude<Access, 'public'>, Partial<Record<number, Contribution>>> = {
  kiosk: {
    401: {
      name: 'KioskKeyMissing',
      description: 'No `X-API-Key`, or a key that is unknown or revoked',
      codes: ['unauthenticated'],
    },
    403: {
      name: 'KioskKeyOfOtherKiosk',
      description: 'The key belongs to another kiosk',
      codes: ['permission-denied'],
    },
  },
  user: {
    401: {
      name: 'IdTokenMissing',
      description: 'No `Authorization: Bearer` ID token, or one that is invalid or expired',
      codes: ['unauthenticated'],
    },
    403: {
      name: 'OtherUser',
      description: "Another user's data, without the admin claim",
      codes: ['permission-denied'],
    },
    503: idTokenUnavailable,
  },
  admin: {
    401: {
      name: 'AdminTokenMissing',
      description:
        'No `Authorization: Bearer` ID token, or one that is invalid, expired, of a disabled account, or issued ' +
        "before the account's tokens were revoked",
      codes: ['unauthenticated'],
    },
    403: { name: 'NotAdmin', description: 'The ID token has no `admin` claim', codes: ['permission-denied'] },
    503: idTokenUnavailable,
  },
  partner: {
    401: {
      name: 'PartnerKeyMissing',
      description: "No `X-API-Key`, or one that is not a partner's, unknown or revoked",
      codes: ['unauthenticated'],
    },
  },
};

/** Every operation can answer these (api.ts, router.ts). */
export const PROTOCOL_ANSWERS: Record<number, Contribution> = {
  400: {
    name: 'BadRequest',
    description:
      'A path id, query parameter, header or body field that is not valid (the message names it), text that is ' +
      'not valid Unicode, an unknown query parameter or body field, or a body on an operation that takes none. ' +
      'JSON that cannot be parsed is refused by the hosting runtime itself, as an HTML page',
    codes: ['invalid-argument'],
  },
  413: {
    name: 'PayloadTooLarge',
    description: `The body is over ${MAX_BODY_BYTES} bytes`,
    codes: ['payload-too-large'],
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not `application/json`',
    codes: ['unsupported-media-type'],
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected failure; the body holds no internals',
    codes: ['internal'],
  },
};

/** Answers to a request that is no operation: described once, as components.responses. */
export const NO_OPERATION_ANSWERS: Record<number, Contribution> = {
  404: { name: 'NoSuchEndpoint', description: 'No operation has this path', codes: ['not-found'] },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path exists, with other methods (listed in `Allow`)',
    codes: ['method-not-allowed'],
    headers: ['Allow'],
  },
};

export const HEADERS: Record<ResponseHeader | 'Allow', Json> = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
    schema: toDocumentSchema(Type.Unsafe<'true'>({ type: 'string', enum: ['true'] })),
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: toDocumentSchema(Type.String({ pattern: '^[0-9]+$' })),
  },
  Allow: {
    description: 'The methods the path serves, e.g. `GET, HEAD`',
    required: true,
    schema: toDocumentSchema(Type.String()),
  },
};
export const headerComponentName = (header: string): string => header.replace(/-/g, '');
export const headerRef = (header: string): Json => ({ $ref: `#/components/headers/${headerComponentName(header)}` });

/**
 * A success's headers: each is sent only where it applies (a replay, a batch item to
 * send again), so none is required there, though an error answer must carry its own.
 */
export const successHeadersOf = (names: readonly ResponseHeader[]): Json =>
  Object.fromEntries(
    names.map((header) => [
      header,
      HEADERS[header].required ? { ...HEADERS[header], required: false } : headerRef(header),
    ]),
  );

/** Path ids follow Firestore's document id rules (domain/ids.ts). */
export const PATH_ID_SCHEMA = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  pattern: '^(?!\\.\\.?$)(?!__[\\s\\S]*__$)[^/]+$',
});
export const PATH_ID_RULE = `1-${MAX_ID_LENGTH} characters, without "/", and not ".", ".." or "__…__" (a Firestore document id)`;
export const PATH_PARAMETERS: Record<string, string> = {
  kioskId: "The kiosk's id",
  userId: "The user's id: their Firebase Auth uid",
  keyId: 'The key id (SHA-256 of the key, hex) that was returned when the key was issued',
  redemptionId: 'The redemption id, as `POST /user/{userId}/redemptions` returned it',
  // Webhooks (contract §13).
  webhookId: 'The webhook id, as `POST /admin/webhooks` returned it',
  deliveryId: 'The delivery id, as `GET /admin/webhooks/{webhookId}/deliveries` lists it',
  // Partners and vouchers (§12)
  partnerId: "The partner's id",
  code: 'A voucher code as the user shows it; case, spaces and hyphens do not matter',
  // Trust (contract §17).
  transactionId: "The held transaction's id, as `GET /admin/holds` lists it",
  alertId: 'The alert id, as `GET /admin/alerts` lists it',
};

const idempotencyKeyParameter = (required: boolean, description: string): Json => ({
  name: 'Idempotency-Key',
  in: 'header',
  required,
  description,
  schema: toDocumentSchema(
    Type.String({ minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN }),
  ),
});

/** The header of retries: optional for a kiosk's deposit, required for a user's spend. */
export const IDEMPOTENCY_KEY_PARAMETERS = {
  IdempotencyKey: idempotencyKeyParameter(
    false,
    'Makes retries safe: a repeat with the same key from the same kiosk (for an adjustment: for the same ' +
      'user), at any later time, is answered with the original response and applies nothing again; the ' +
      'same key with another body is 422',
  ),
  SpendIdempotencyKey: idempotencyKeyParameter(
    true,
    'Required, so a spend is safe to retry: a repeat with the same key for the same user, at any later ' +
      'time, is answered with the original response and spends nothing again; the same key with another ' +
      'body is 422',
  ),
};
