// The lists of trust (contract §17), with no import: the console's bundle takes them from here too.

/** Every rule that holds a deposit's points, in the order a hold lists them. */
export const HOLD_REASONS = ['kiosk-throughput', 'user-daily-items', 'impossible-travel', 'user-suspended'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** How an operator settles a hold. */
export const HOLD_RESOLUTIONS = ['released', 'rejected'] as const;
export type HoldResolution = (typeof HOLD_RESOLUTIONS)[number];

/** What a transaction's points are: credited, or waiting for review. */
/** (`unclaimed`: an anonymous deposit's points wait for a claim, contract §18.) */
export const TRANSACTION_STATUSES = ['awarded', 'held', 'unclaimed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
