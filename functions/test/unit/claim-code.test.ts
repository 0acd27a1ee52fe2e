import {
  claimExpiry,
  claimStateOf,
  displayedClaimCode,
  newClaimCode,
  normaliseClaimCode,
} from '../../src/domain/claimCode';
import { VOUCHER_ALPHABET } from '../../src/domain/voucherCode';

describe('claim codes (§18)', () => {
  test('at least 10 characters of the alphabet without look-alikes, no two alike', () => {
    const codes = Array.from({ length: 2000 }, newClaimCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code.length).toBeGreaterThanOrEqual(10);
      expect([...code].every((char) => VOUCHER_ALPHABET.includes(char))).toBe(true);
    }
  });

  test('matched ignoring case, spaces and hyphens; shown in groups of four', () => {
    const code = newClaimCode();
    const shown = displayedClaimCode(code);
    expect(shown).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(normaliseClaimCode(shown)).toBe(code);
    expect(normaliseClaimCode(` ${shown.toLowerCase().replace(/-/g, ' ')} `)).toBe(code);
    expect(normaliseClaimCode('not a code')).toBeUndefined();
    expect(normaliseClaimCode('x'.repeat(1000))).toBeUndefined();
  });

  test('valid CLAIM_VALID_DAYS days after the deposit, claimable until then, claimed forever', () => {
    const occurredAt = new Date('2026-11-01T10:00:00Z');
    const expiresAt = claimExpiry(occurredAt, 30);
    expect(expiresAt.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(claimStateOf({ claimed: false, expiresAt }, new Date('2026-12-01T09:59:59Z'))).toBe('claimable');
    expect(claimStateOf({ claimed: false, expiresAt }, expiresAt)).toBe('expired');
    expect(claimStateOf({ claimed: true, expiresAt }, new Date('2027-01-01T00:00:00Z'))).toBe('claimed');
  });
});
