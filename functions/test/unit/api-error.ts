import { ApiError } from '../../src/errors';
import { errorAnswerOf, type ErrorAnswer } from '../../src/http/errorAnswers';

/** Runs `fn`, expecting an ApiError, and returns it as the API answers it (status, code, message, headers). */
export function apiErrorOf(fn: () => unknown): ErrorAnswer {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return errorAnswerOf(error as ApiError);
  }
  throw new Error('expected an ApiError, nothing was thrown');
}
