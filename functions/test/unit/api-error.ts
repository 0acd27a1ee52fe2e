import { ApiError } from '../../src/errors';

/** Runs `fn`, expecting an ApiError, and returns it for closer inspection. */
export function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}
