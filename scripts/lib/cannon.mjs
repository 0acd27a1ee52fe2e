// Load through autocannon: every load of the bench, and the load test's fleet phase.
import autocannon from 'autocannon';

/** The union of the request's backend calls' intervals, from its Server-Timing header (ms). */
export const backendMs = (/** @type {unknown} */ header) => Number(/backend;dur=([\d.]+)/.exec(String(header))?.[1]);

/** @typedef {{ method: string, path: string, headers?: Record<string, string>, body?: unknown }} BenchRequest */
/** @typedef {import('autocannon').Request['method']} Method */

let sent = 0;
/**
 * `amount` requests (or `duration` seconds) over `connections` keep-alive connections, the n-th built by
 * `build(n, connection)`: n counts across every call, so ids built from it never repeat; `connection` is an object of
 * the connection's own, also given to `onAnswer`.
 * @typedef {(status: number, body: string, connection: Record<string, any>) => void} OnAnswer
 * @param {string} url
 * @param {{ connections: number, amount?: number, duration?: number, build: (n: number, connection: Record<string, any>) => BenchRequest, onAnswer?: OnAnswer }} options
 */
export function cannon(url, { connections, amount, duration, build, onAnswer }) {
  /** @type {{ latencies: number[], backend: number[], failures: string[] }} */
  const load = { latencies: [], backend: [], failures: [] };
  /** @type {import('autocannon').Request} */
  const request = {
    setupRequest: (base, connection) => {
      const { path, headers = {}, body, ...built } = build(sent++, connection);
      const method = /** @type {Method} */ (built.method);
      if (body === undefined) return { ...base, method, path, headers };
      const json = { 'content-type': 'application/json', ...headers };
      return { ...base, method, path, headers: json, body: JSON.stringify(body) };
    },
    onResponse: (status, body, connection, headers) => {
      const timing = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'server-timing');
      if (timing) load.backend.push(backendMs(timing[1]));
      if (status >= 300) load.failures.push(`${status} ${body.slice(0, 160)}`);
      onAnswer?.(status, body, connection);
    },
  };
  // Unset options must be absent: autocannon takes an undefined duration for a bad one.
  const size = amount ? { amount } : { duration };
  // A run ends on autocannon's next sampling tick: 100 ms rather than a second of idling.
  const options = { url, connections, ...size, sampleInt: 100, timeout: 60, requests: [request] };
  /** @type {Promise<typeof load & { result: import('autocannon').Result }>} */
  return new Promise((resolve, reject) => {
    const tracker = autocannon(options, (error, result) => (error ? reject(error) : resolve({ ...load, result })));
    tracker.on('response', (_client, _status, _bytes, ms) => load.latencies.push(ms));
  });
}
/** @typedef {Awaited<ReturnType<typeof cannon>>} Load */
