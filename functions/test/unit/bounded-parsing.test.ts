/**
 * Bad input never costs more than a 400: every pattern applied to request input runs
 * in time linear in its input, and every parameter is bounded before it is parsed.
 */
import { performance } from 'node:perf_hooks';
import { ApiError } from '../../src/errors';
import { errorAnswerOf, type ErrorAnswer } from '../../src/http/errorAnswers';
import { DECIMAL, nearbySearchOf } from '../../src/domain/nearby';
import { MAX_BODY_DEPTH, validateBody } from '../../src/http/validation';

/** Milliseconds `run` takes, the best of 3 (the least disturbed by the rest of the machine). */
function millisecondsOf(run: () => void): number {
  const times = [0, 1, 2].map(() => {
    const start = performance.now();
    run();
    return performance.now() - start;
  });
  return Math.min(...times);
}

describe('the decimal pattern of GET /kiosks?near=', () => {
  test('a failing match is linear: 200,000 digits and a letter take milliseconds, not minutes', () => {
    // The pattern this replaces, /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i, took 0.55 s on 16,000 digits
    // and grows with the square of the length: about 90 s here.
    for (const adversarial of [
      '1'.repeat(200_000) + 'x',
      '.' + '1'.repeat(200_000) + 'e',
      '1'.repeat(200_000) + 'e+',
    ]) {
      const elapsed = millisecondsOf(() => expect(DECIMAL.test(adversarial)).toBe(false));
      expect(elapsed).toBeLessThan(200);
    }
  });

  test('it still reads what formatters write', () => {
    for (const text of ['52.52', '-0.5', '.5', '1e-7', '+3.', '13.4132']) expect(DECIMAL.test(text)).toBe(true);
    for (const text of ['', '.', 'e5', '1..2', '0x10', '1 ', '--1']) expect(DECIMAL.test(text)).toBe(false);
  });

  test('a 16 KB near is refused without running the pattern over it', () => {
    const near = `${'1'.repeat(16_000)}x,1`;
    const elapsed = millisecondsOf(() =>
      expect(() => nearbySearchOf({ near })).toThrow('near must be latitude,longitude in decimal degrees'),
    );
    expect(elapsed).toBeLessThan(20);
    expect(() => nearbySearchOf({ near: '0,0', radiusKm: '1'.repeat(40) })).toThrow(/^radiusKm must be a number/);
  });
});

describe('body fields are bounded before their format is checked', () => {
  test('a 60 KB e-mail address built to backtrack is refused by its length at once', () => {
    const email = `a@${'a'.repeat(60_000)}!`;
    const elapsed = millisecondsOf(() =>
      expect(() => validateBody('otpEmailBody', { email, otp: '1234' })).toThrow(
        'email must NOT have more than 254 characters',
      ),
    );
    expect(elapsed).toBeLessThan(20);
  });
});

describe('deeply nested bodies: 400, never a stack overflow', () => {
  const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

  function refusal(name: Parameters<typeof validateBody>[0], body: unknown): ErrorAnswer {
    try {
      validateBody(name, body);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return errorAnswerOf(error as ApiError);
    }
    throw new Error('expected the body to be refused');
  }

  test.each([10_000, 30_000])('a batch item holding %i nested arrays', (depth) => {
    const error = refusal('transactionBatchBody', { transactions: [{ kioskId: 'k', note: nested(depth) }] });
    expect(error.status).toBe(400);
    expect(error.message).toBe(`request body nests arrays or objects deeper than ${MAX_BODY_DEPTH} levels`);
  });

  test('nested objects in any body, wherever they sit', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(refusal('notifyTopicBody', { topic: 'all_users', title: 't', body: 'b', data: deep }).status).toBe(400);
    expect(refusal('kioskStatusBody', { status: 'available', fillLevel: deep }).status).toBe(400);
  });

  test('every body the API takes is far shallower than the limit', () => {
    const item = { kioskId: 'k', userId: 'u', plasticCount: 1, metalCount: 0, idempotencyKey: 'key-1' };
    expect(validateBody('transactionBatchBody', { transactions: [item] })).toEqual({ transactions: [item] });
  });
});
