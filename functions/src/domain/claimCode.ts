import { newVoucherCode, normaliseVoucherCode } from './voucherCode';

/*
 * Claim codes (contract §18): what an anonymous deposit's recycler takes home to
 * claim its points later. As unguessable as a voucher code, and written the same way,
 * so both come from domain/voucherCode.ts: 12 characters of Crockford's base32 from
 * the cryptographic source, matched ignoring case, spaces and hyphens.
 */

const DAY_MS = 24 * 60 * 60_000;

/** A new claim code: a voucher code's generator, so the two never drift apart. */
export const newClaimCode = (): string => newVoucherCode();

/** The code as stored, from the code as a person wrote it; undefined for what no code can be. */
export const normaliseClaimCode = (written: string): string | undefined => normaliseVoucherCode(written);

/** The code as a kiosk shows it: groups of four, easy to read off a screen and type in (`ABCD-EFGH-JKMN`). */
export const displayedClaimCode = (code: string): string => code.match(/.{1,4}/g)!.join('-');

/** A claim is honoured until `validDays` days after the deposit was made (CLAIM_VALID_DAYS). */
export const claimExpiry = (occurredAt: Date, validDays: number): Date =>
  new Date(occurredAt.getTime() + validDays * DAY_MS);

/** What a claim code's transaction allows now. */
export type ClaimState = 'claimable' | 'claimed' | 'expired';

/** A claimed transaction stays claimed; an unclaimed one is claimable until `expiresAt` (excluded). */
export function claimStateOf(claim: { claimed: boolean; expiresAt: Date }, now: Date): ClaimState {
  if (claim.claimed) return 'claimed';
  return now.getTime() < claim.expiresAt.getTime() ? 'claimable' : 'expired';
}
