// Percentiles and medians, for the benchmark and the load test.

/** Nearest-rank percentile of an ascending array. @param {number[]} sorted @param {number} p */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Count and nearest-rank p50, p95, p99 of `values`. @param {number[]} values */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

export const sum = (/** @type {number[]} */ values) => values.reduce((total, n) => total + n, 0);

/** Median of the finite values (mean of the middle two for an even count). @param {number[]} values */
export const median = (values) => {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
