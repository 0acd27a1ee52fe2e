import { assertRedeemable } from '../../src/domain/redemption';
import { VOUCHER_ALPHABET, newVoucherCode } from '../../src/domain/voucherCode';
import { apiErrorOf } from './api-error';
import { VOUCHER_CODE_LENGTH } from '../../src/model/limits';

describe('voucher codes', () => {
  test('Crockford base32: 32 characters, none of I, L, O, U', () => {
    expect(new Set(VOUCHER_ALPHABET).size).toBe(32);
    expect(VOUCHER_ALPHABET).toMatch(/^[0-9A-Z]+$/);
    expect(VOUCHER_ALPHABET).not.toMatch(/[ILOU]/);
  });

  test('at least 10 characters of the alphabet, every character used, no two codes alike', () => {
    const codes = Array.from({ length: 2000 }, newVoucherCode);
    expect(VOUCHER_CODE_LENGTH).toBeGreaterThanOrEqual(10);
    for (const code of codes) expect(code).toMatch(new RegExp(`^[${VOUCHER_ALPHABET}]{${VOUCHER_CODE_LENGTH}}$`));
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(codes.join(''))).toEqual(new Set(VOUCHER_ALPHABET));
  });
});

describe('assertRedeemable', () => {
  const reward = { id: 'coffee', active: true, stock: 3 as number | null, cost: 300 };

  test('an active reward in stock, affordable: no objection', () => {
    expect(() => assertRedeemable(reward, 300)).not.toThrow();
    expect(() => assertRedeemable({ ...reward, stock: null }, 300)).not.toThrow();
  });

  test.each([
    [{ active: false, stock: 0 }, 1000, 'reward-inactive'],
    [{ stock: 0 }, 0, 'out-of-stock'],
    [{}, 299, 'insufficient-points'],
  ])('%j with a balance of %d: 409 %s', (change, balance, code) => {
    expect(apiErrorOf(() => assertRedeemable({ ...reward, ...change }, balance))).toMatchObject({ status: 409, code });
  });
});
