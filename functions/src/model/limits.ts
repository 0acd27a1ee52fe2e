/**
 * The API's bounds, as plain numbers and patterns: the schemas (model/) state them and the domain enforces them, so
 * both take them from here. No import, and no TypeBox: the domain loads these at cold start.
 */

export const MAX_ID_LENGTH = 128;

export const MAX_BODY_BYTES = 64 * 1024;

/** The most items of one material a deposit may hold. */
export const MAX_ITEMS_PER_MATERIAL = 1000;
/** The most deposits one batch may carry. */
export const MAX_BATCH_ITEMS = 100;

export const MAX_ADJUSTMENT_POINTS = 100_000;
export const MAX_ADJUSTMENT_REASON_LENGTH = 200;

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/**
 * Keys are visible ASCII (0x21-0x7E), so a key is the same text wherever it is sent:
 * Node reads header bytes as latin1, a JSON body as UTF-8, and `café-1` would be two
 * keys (two transactions) if either admitted it.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[!-~]+$';

export const MAX_REWARD_COST = 1_000_000;
export const MAX_REWARD_STOCK = 1_000_000_000;
/** How long a voucher is honoured after it is issued, in days (§12). */
export const DEFAULT_VOUCHER_VALID_DAYS = 90;
export const MAX_VOUCHER_VALID_DAYS = 730;

/** 12 characters of 5 bits: 60 random bits, beyond guessing. */
export const VOUCHER_CODE_LENGTH = 12;

// Promotions (contract §16).
export const MAX_PROMOTION_NAME_LENGTH = 100;
export const MAX_PROMOTION_MULTIPLIER = 10;
export const MAX_PROMOTION_BONUS_POINTS = 10_000;
export const MAX_PROMOTION_MIN_ITEMS = 1000;
export const MAX_PROMOTION_KIOSKS = 100;
/**
 * The most promotions active at once: their terms share one document (data/promotions.ts), and 50 of the largest
 * (100 kiosk ids of 128 characters, the longest name and hours) stay well under Firestore's 1 MiB.
 */
export const MAX_ACTIVE_PROMOTIONS = 50;
export const MAX_PROMOTION_BUDGET_POINTS = 100_000_000;
/** Longer than any code (a voucher's, a claim's) written with spaces and hyphens: refused before it is looked at. */
export const MAX_WRITTEN_CODE_LENGTH = 64;
