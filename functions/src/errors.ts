/**
 * Every machine-readable `code` of an error answer. A closed list, so that the API
 * description (http/apiDescription/openapi.ts) can name, per response, the codes a client may meet.
 */
export type ErrorCode =
  | 'invalid-argument'
  | 'unauthenticated'
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
  | 'overloaded';

/**
 * The one error type of the service. Anything thrown as an ApiError is answered
 * with its status and `{ error, code }`; anything else becomes a bare 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code: ErrorCode = 'invalid-argument'): ApiError =>
  new ApiError(400, code, message);
export const unauthorized = (message: string): ApiError => new ApiError(401, 'unauthenticated', message);
export const forbidden = (message: string): ApiError => new ApiError(403, 'permission-denied', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'not-found', message);
export const conflict = (message: string, code: ErrorCode): ApiError => new ApiError(409, code, message);

/** How soon a request given up as overloaded is asked to come again. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 5;
/**
 * A request the service gave up on to protect itself (contention or a queue that did
 * not clear in time): nothing of it was written, and it may be sent again as it is.
 */
export const overloaded = (): ApiError =>
  new ApiError(503, 'overloaded', 'The service is overloaded; nothing was written. Send the request again later', {
    'Retry-After': String(OVERLOAD_RETRY_AFTER_SECONDS),
  });
