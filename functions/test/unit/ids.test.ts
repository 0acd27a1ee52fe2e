import { assertDocumentId, isValidDocumentId } from '../../src/domain/ids';
import { ApiError } from '../../src/errors';
import { errorAnswerOf } from '../../src/http/errorAnswers';
import { MAX_ID_LENGTH } from '../../src/model/limits';

describe('isValidDocumentId', () => {
  test.each([
    ['a'],
    ['kiosk-001'],
    ['x'.repeat(128)],
    ['__x'],
    ['x__'],
    ['_'],
    ['__'],
    ['...'],
    ['.x'],
    ['a.b'],
    ['ünïcødé'],
    ['with space'],
  ])('%p is valid', (id) => {
    expect(isValidDocumentId(id)).toBe(true);
  });

  test.each([
    ['', 'empty'],
    ['x'.repeat(129), '129 characters'],
    ['a/b', 'a slash'],
    ['/', 'only a slash'],
    ['a/', 'a trailing slash'],
    ['.', 'a single dot'],
    ['..', 'two dots'],
    ['__x__', 'reserved __...__'],
    ['____', 'reserved, nothing between'],
    ['__name__', 'reserved __name__'],
  ])('%p is invalid (%s)', (id) => {
    expect(isValidDocumentId(id)).toBe(false);
  });

  test('the length limit is 128', () => {
    expect(MAX_ID_LENGTH).toBe(128);
  });
});

describe('assertDocumentId', () => {
  test('returns a valid id unchanged', () => {
    expect(assertDocumentId('kiosk-001', 'kioskId')).toBe('kiosk-001');
  });

  test.each([[''], ['a/b'], ['.'], ['..'], ['__x__'], ['x'.repeat(129)]])(
    '%p throws a 400 that names the field',
    (id) => {
      let thrown: unknown;
      try {
        assertDocumentId(id, 'userId');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      const error = errorAnswerOf(thrown as ApiError);
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid-argument');
      expect(error.message.startsWith('userId ')).toBe(true);
    },
  );
});

describe('reserved ids with line breaks (found by the fuzzer)', () => {
  test.each(['__\n__', '__\r__', '__\u2028__', '__\u2029__'])('%j is reserved', (id) => {
    expect(isValidDocumentId(id)).toBe(false);
  });
});
