/**
 * The words the API's fields take, each list once: the schemas (model/) enumerate them and the domain and data
 * layers type with them. No import, and no TypeBox: the domain loads these at cold start.
 */

export const KIOSK_STATUSES = ['available', 'maintenance', 'offline'] as const;
export type KioskStatus = (typeof KIOSK_STATUSES)[number];

/**
 * An alert is open for a kiosk exactly while its condition holds: `bin-full` (a bin
 * at or above the fill threshold), `error` (an error code set), `silent` (available,
 * seen once, and not within the online window); each resolves by itself. `suspicious`
 * (a kiosk past its throughput limit, contract §17) stays open until an operator resolves it.
 */
export const ALERT_KINDS = ['bin-full', 'error', 'silent', 'suspicious'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const REWARD_KINDS = ['voucher', 'donation'] as const;
/** `voucher`: the user gets a code to show at a partner; `donation`: the points go to a cause, no code. */
export type RewardKind = (typeof REWARD_KINDS)[number];

/** The status stored; `expired` is never stored but derived when read (see data/redemptions.ts's voucherStatusOf). */
export type RedemptionStatus = 'issued' | 'used' | 'cancelled';
export type VoucherStatus = RedemptionStatus | 'expired';

/**
 * Every change of a balance is one entry, written in the commit that makes the
 * change: `earn` (a transaction), `redeem`/`refund` (a redemption and its cancelling),
 * `adjust` (an operator, or the opening balance of a user from before the ledger),
 * `expire` (points past their date, services/pointsExpiry.ts), `forfeit` (the balance
 * written off when the user was erased, services/erasure.ts).
 * The sum of a user's `points` is their `currentPoints`; the sum over `earn` and
 * `adjust` is their `totalPoints`.
 */
export type LedgerKind = 'earn' | 'redeem' | 'refund' | 'adjust' | 'expire' | 'forfeit';
