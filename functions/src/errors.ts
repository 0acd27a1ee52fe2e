/**
 * Every machine-readable `code` of an error answer. A closed list, so that the API
 * description (http/apiDescription/openapi.ts) can name, per response, the codes a client may meet.
 */
export type ErrorCode =
  | 'invalid-argument'
  | 'unauthenticated'
  | 'recent-sign-in-required'
  | 'permission-denied'
  | 'not-found'
  | 'method-not-allowed'
  | 'kiosk-unavailable'
  | 'no-push-token'
  | 'push-token-unregistered'
  | 'push-message-rejected'
  | 'idempotency-key-reused'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'internal'
  | 'mail-delivery-failed'
  | 'push-provider-unavailable'
  | 'auth-unavailable'
  | 'kiosk-misconfigured'
  | 'reward-inactive'
  | 'out-of-stock'
  | 'insufficient-points'
  | 'already-cancelled'
  | 'overloaded'
  // Webhooks (contract §13).
  | 'webhook-url-refused'
  | 'webhook-delivery-pending'
  // Partners and vouchers (§12)
  | 'voucher-not-found'
  | 'voucher-used'
  | 'voucher-expired'
  | 'voucher-cancelled'
  // Trust (contract §17).
  | 'hold-not-found'
  | 'hold-resolved'
  | 'account-suspended'
  | 'alert-resolves-itself'
  // Claim codes (§18)
  | 'claim-not-found'
  | 'claim-used'
  | 'claim-expired'
  // Promotions (§16)
  | 'too-many-promotions';

/** What a refused request may add to its code and message: when to come again, or what would have been allowed. */
export interface ErrorDetails {
  /** Seconds after which the same request may succeed. */
  retryAfterSeconds?: number;
  /** The methods a path does serve (a method it does not). */
  allowedMethods?: readonly string[];
  /** Fields the answer carries beside `error` and `code`, e.g. the voucher a 409 `voucher-used` is about. */
  fields?: Readonly<Record<string, unknown>>;
}

/**
 * The one error type of the service: why a request is refused, as a code from the
 * closed list and a sentence, never as an HTTP status. Every layer throws it; the
 * HTTP edge alone answers it, with the status of its code (http/errorAnswers.ts)
 * and `{ error, code }`. Anything else thrown becomes a bare 500.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<ErrorDetails> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'invalid-argument'): ApiError =>
  new ApiError(code, message);
export const unauthorized = (message: string): ApiError => new ApiError('unauthenticated', message);
export const forbidden = (message: string): ApiError => new ApiError('permission-denied', message);
export const notFound = (message: string): ApiError => new ApiError('not-found', message);
export const conflict = (message: string, code: ErrorCode): ApiError => new ApiError(code, message);

/** How soon a request given up as overloaded is asked to come again. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 5;
/**
 * A request the service gave up on to protect itself (contention or a queue that did
 * not clear in time): nothing of it was written, and it may be sent again as it is.
 */
export const overloaded = (): ApiError =>
  new ApiError('overloaded', 'The service is overloaded; nothing was written. Send the request again later', {
    retryAfterSeconds: OVERLOAD_RETRY_AFTER_SECONDS,
  });
