/**
 * The one error type of the service. Anything thrown as an ApiError is answered
 * with its status and `{ error, code }`; anything else becomes a bare 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code = 'invalid-argument'): ApiError => new ApiError(400, code, message);
export const unauthorized = (message: string): ApiError => new ApiError(401, 'unauthenticated', message);
export const forbidden = (message: string): ApiError => new ApiError(403, 'permission-denied', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'not-found', message);
export const conflict = (message: string, code = 'failed-precondition'): ApiError => new ApiError(409, code, message);
