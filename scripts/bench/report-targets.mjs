// @ts-check
// The bench's targets and how BENCHMARKS.md judges a figure against them (report.mjs
// and the section writers next to it).

/** @typedef {import('./run.mjs').Results} Results */

export const TARGETS = { coldStartRatio: 1.15, warmP50Ratio: 1.2, throughputSpread: 0.2 };

/** Ratios are judged as printed (two decimals), so a printed 1.15 never reads "missed". */
export const within = (/** @type {number} */ ratio, /** @type {number} */ target) =>
  Number.isFinite(ratio) && Math.round(ratio * 100) / 100 <= target;

export const verdict = (/** @type {boolean} */ ok) => (ok ? 'met' : '**MISSED**');

/**
 * Not judged: a row where more than 10% of the endpoint's requests failed (no
 * meaningful p50), and concurrent transactions with a query, which the emulator
 * deadlocks (the service retries them for up to 30 s, the floor's SDK gives up sooner).
 * @param {Results['warm'][number]} row
 */
export const judged = (row) =>
  row.failed.endpoint <= 0.1 * row.attempted && !(row.emulatorLocks && row.concurrency > 1);
