import {
  canonicalJson,
  keyedTransactionId,
  parseIdempotencyKey,
  requestFingerprint,
} from '../../src/domain/idempotency';
import { apiErrorOf } from './api-error';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../src/model/limits';

describe('canonicalJson', () => {
  test('sorts object keys, so key order does not matter', () => {
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  test('sorts keys at every level of nesting', () => {
    const one = { outer: { z: 1, y: { q: true, p: null } }, a: 'x' };
    const two = { a: 'x', outer: { y: { p: null, q: true }, z: 1 } };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    expect(canonicalJson(one)).toBe('{"a":"x","outer":{"y":{"p":null,"q":true},"z":1}}');
  });

  test('keeps array order, and sorts the keys of objects inside arrays', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson([3, 1, 2])).not.toBe(canonicalJson([1, 2, 3]));
    expect(canonicalJson([{ b: 1, a: 2 }, 'x'])).toBe('[{"a":2,"b":1},"x"]');
  });

  test('renders scalars as JSON', () => {
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(12.5)).toBe('12.5');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  test('round-trips through JSON.parse to an equal value', () => {
    const value = { kioskId: 'k1', items: [{ metal: 2, plastic: 1 }], note: 'ü "quoted"' };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});

describe('requestFingerprint', () => {
  const body = { kioskId: 'k1', userId: 'u1', plasticCount: 3, metalCount: 2 };

  test('is a sha-256 hex digest', () => {
    expect(requestFingerprint(body)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('is the same for a reordered body', () => {
    const reordered = { metalCount: 2, plasticCount: 3, userId: 'u1', kioskId: 'k1' };
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(body));
  });

  test.each([
    ['plasticCount', { ...body, plasticCount: 4 }],
    ['metalCount', { ...body, metalCount: 0 }],
    ['userId', { ...body, userId: 'u2' }],
    ['a number sent as string', { ...body, plasticCount: '3' }],
    ['an extra field', { ...body, extra: true }],
  ])('differs when %s changes', (_what, changed) => {
    expect(requestFingerprint(changed)).not.toBe(requestFingerprint(body));
  });
});

describe('keyedTransactionId', () => {
  test('is deterministic', () => {
    expect(keyedTransactionId('kiosk-a', 'key-1')).toBe(keyedTransactionId('kiosk-a', 'key-1'));
    expect(keyedTransactionId('kiosk-a', 'key-1')).toMatch(/^[0-9a-f]{64}$/);
  });

  test('is scoped per kiosk: the same key from two kiosks gives two transactions', () => {
    expect(keyedTransactionId('kiosk-a', 'key-1')).not.toBe(keyedTransactionId('kiosk-b', 'key-1'));
  });

  test('differs per key for one kiosk', () => {
    expect(keyedTransactionId('kiosk-a', 'key-1')).not.toBe(keyedTransactionId('kiosk-a', 'key-2'));
  });

  test('is unambiguous where a separator would not be: ("a:b", "c") and ("a", "b:c") differ', () => {
    expect(keyedTransactionId('a:b', 'c')).not.toBe(keyedTransactionId('a', 'b:c'));
  });
});

describe('parseIdempotencyKey', () => {
  test('absent header: undefined', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  test('a usable key is returned unchanged', () => {
    expect(parseIdempotencyKey('3f0c9a0e-5b7e-4c57-9d4b-1b1f0c3f1a2b')).toBe('3f0c9a0e-5b7e-4c57-9d4b-1b1f0c3f1a2b');
    expect(parseIdempotencyKey('x')).toBe('x');
  });

  test('255 characters are accepted', () => {
    expect(MAX_IDEMPOTENCY_KEY_LENGTH).toBe(255);
    const key = 'k'.repeat(255);
    expect(parseIdempotencyKey(key)).toBe(key);
  });

  test('an empty key is a 400', () => {
    const error = apiErrorOf(() => parseIdempotencyKey(''));
    expect(error.status).toBe(400);
    expect(error.message).toContain('Idempotency-Key');
  });

  test('256 characters are a 400', () => {
    const error = apiErrorOf(() => parseIdempotencyKey('k'.repeat(256)));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Idempotency-Key must be 1-255 visible ASCII characters (0x21-0x7E)');
  });

  test('every visible ASCII character is accepted', () => {
    const visible = String.fromCharCode(...Array.from({ length: 0x7e - 0x21 + 1 }, (_, n) => 0x21 + n));
    expect(parseIdempotencyKey(visible)).toBe(visible);
  });

  test.each([
    ['café-1 (as a JSON body carries it)', 'café-1'],
    ['café-1 as Node reads its UTF-8 header bytes (latin1)', Buffer.from('café-1', 'utf8').toString('latin1')],
    ['a space', 'receipt 1'],
    ['a tab', 'receipt\t1'],
    ['DEL', 'receipt\u007f'],
  ])('%s: 400 naming the key', (_, key) => {
    const error = apiErrorOf(() => parseIdempotencyKey(key));
    expect(error).toMatchObject({ status: 400, code: 'invalid-argument' });
    expect(error.message).toBe('Idempotency-Key must be 1-255 visible ASCII characters (0x21-0x7E)');
  });

  test('a header sent twice is a 400', () => {
    const error = apiErrorOf(() => parseIdempotencyKey(['a', 'b']));
    expect(error.status).toBe(400);
    expect(error.message).toContain('once');
  });
});
