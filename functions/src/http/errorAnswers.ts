import type { ApiError, ErrorCode } from '../errors';

/**
 * The HTTP status of every error code: the one place a refusal becomes a status. A
 * code means one status wherever it is met, so a client may act on either.
 */
export const STATUS_OF_CODE: Readonly<Record<ErrorCode, number>> = {
  'invalid-argument': 400,
  'push-message-rejected': 400,
  unauthenticated: 401,
  'recent-sign-in-required': 401,
  'permission-denied': 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'kiosk-unavailable': 409,
  'no-push-token': 409,
  'reward-inactive': 409,
  'out-of-stock': 409,
  'insufficient-points': 409,
  'already-cancelled': 409,
  'push-token-unregistered': 410,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'idempotency-key-reused': 422,
  'rate-limited': 429,
  internal: 500,
  'mail-delivery-failed': 502,
  'push-provider-unavailable': 502,
  'auth-unavailable': 503,
  'kiosk-misconfigured': 503,
  overloaded: 503,
  // Webhooks (contract §13).
  'webhook-url-refused': 400,
  'webhook-delivery-pending': 409,
  // Partners and vouchers (§12)
  'voucher-not-found': 404,
  'voucher-used': 409,
  'voucher-expired': 409,
  'voucher-cancelled': 409,
  // Trust (contract §17).
  'hold-not-found': 404,
  'hold-resolved': 409,
  'account-suspended': 403,
  'alert-resolves-itself': 409,
  // Claim codes (§18)
  'claim-not-found': 404,
  'claim-used': 409,
  'claim-expired': 409,
  // Promotions (§16)
  'too-many-promotions': 409,
};

/** An ApiError as the API answers it: its code's status, the headers its details call for, and `{ error, code }`. */
export interface ErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  /** Beside `error` and `code` in the body. */
  fields: Readonly<Record<string, unknown>>;
}

export function errorAnswerOf({ code, message, details }: ApiError): ErrorAnswer {
  const headers: Record<string, string> = {};
  if (details.retryAfterSeconds !== undefined) headers['Retry-After'] = String(details.retryAfterSeconds);
  if (details.allowedMethods) headers.Allow = details.allowedMethods.join(', ');
  return { status: STATUS_OF_CODE[code], code, message, headers, fields: details.fields ?? {} };
}
