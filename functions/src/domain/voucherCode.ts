import { randomBytes } from 'node:crypto';
import { MAX_WRITTEN_CODE_LENGTH, VOUCHER_CODE_LENGTH } from '../model/limits';

/** Crockford's base32: no I, L, O or U, so a code read aloud or off a screen has no look-alikes. */
export const VOUCHER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A voucher code from the operating system's cryptographic random source. Each byte
 * picks one of 32 characters by its low 5 bits: 256 is a multiple of 32, so every
 * character is equally likely.
 */
export function newVoucherCode(): string {
  return [...randomBytes(VOUCHER_CODE_LENGTH)].map((byte) => VOUCHER_ALPHABET[byte & 31]).join('');
}

const CODE_PATTERN = new RegExp(`^[${VOUCHER_ALPHABET}]{${VOUCHER_CODE_LENGTH}}$`);

/**
 * The code as stored, from the code as a person wrote it: case, spaces and hyphens do
 * not matter. Undefined for what no code can be (the lookup is skipped: it is unknown).
 */
export function normaliseVoucherCode(written: string): string | undefined {
  if (written.length > MAX_WRITTEN_CODE_LENGTH) return undefined;
  const code = written.replace(/[\s-]/g, '').toUpperCase();
  return CODE_PATTERN.test(code) ? code : undefined;
}
