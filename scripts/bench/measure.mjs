// @ts-check
// Timing helpers of the benchmark: a keep-alive HTTP client and a closed-loop load
// runner (N workers, each sending its next request when the last one answered), and
// the request numbers every section draws from; the number formats and tables of the
// log and the report. Percentiles and medians are in scripts/lib/stats.mjs.
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * One HTTP request; resolves with { status, body, ms } (never rejects on an HTTP
 * status, rejects on a network error). `agent: false` opens a fresh connection.
 * @param {{ url: string, method?: string, headers?: Record<string, string>, body?: unknown, agent?: http.Agent | false }} options
 * @returns {Promise<{ status: number, body: string, ms: number }>}
 */
export function request({ url, method = 'GET', headers = {}, body, agent }) {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const target = new URL(url);
  /** @type {Record<string, string | number>} */
  const allHeaders = { ...headers };
  if (payload !== undefined) {
    allHeaders['content-type'] ??= 'application/json';
    allHeaders['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: allHeaders,
        agent,
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const keepAliveAgent = (/** @type {number} */ connections) =>
  new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });

/**
 * Closed loop: `concurrency` workers share `total` operations. `operation(worker, index)`
 * returns a promise of { ok, detail }; each one is timed. Failures are counted and
 * the first few kept, not thrown, so a run always reports.
 * @param {{ concurrency: number, total: number, operation: (worker: number, index: number) => Promise<{ ok?: boolean, detail?: string }> }} options
 */
export async function closedLoop({ concurrency, total, operation }) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {string[]} */
  const failures = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const worker = async (/** @type {number} */ w) => {
    for (;;) {
      if (next >= total) return;
      const index = next++;
      const t0 = performance.now();
      let outcome;
      try {
        outcome = await operation(w, index);
      } catch (error) {
        outcome = { ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
      const ms = performance.now() - t0;
      if (outcome?.ok === false) {
        if (failures.length < 5) failures.push(outcome.detail ?? 'failed');
        failed++;
      } else latencies.push(ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = performance.now() - started;
  return { latencies, failed, failures, elapsedMs: elapsed, perSecond: (latencies.length / elapsed) * 1000 };
}

let sequence = 0;
/**
 * Reserves `count` request numbers and returns the first: numbers go on across
 * sections, so every request of a run (ids, idempotency keys, addresses) is unique.
 * @param {number} count
 */
export function takeIds(count) {
  const first = sequence;
  sequence += count;
  return first;
}

/**
 * `closedLoop` with `operation(worker, g)` given request numbers from `takeIds`.
 * @param {number} concurrency
 * @param {number} total
 * @param {(worker: number, g: number) => Promise<{ ok?: boolean, detail?: string }>} operation
 */
export async function loop(concurrency, total, operation) {
  const base = takeIds(total);
  return closedLoop({ concurrency, total, operation: (w, i) => operation(w, base + i) });
}

/**
 * A sender of requests ({ method, path, headers, body }) to `baseUrl` on `agent`;
 * a 200 or 201 is a success, anything else a failure with its status and body.
 * @param {string} baseUrl
 * @param {http.Agent} agent
 */
export function httpSender(baseUrl, agent) {
  /** @param {import('./endpoints.mjs').BenchRequest} req */
  return async (req) => {
    const response = await request({
      url: `${baseUrl}${req.path}`,
      method: req.method,
      headers: req.headers,
      body: req.body,
      agent,
    });
    const ok = response.status === 200 || response.status === 201;
    return { ok, detail: `${req.method} ${req.path} → ${response.status} ${response.body.slice(0, 160)}` };
  };
}

/** @param {number | undefined} value */
export const fmtMs = (value) =>
  value !== undefined && Number.isFinite(value) ? (value >= 100 ? value.toFixed(0) : value.toFixed(1)) : 'n/a';
/** @param {number} value */
export const fmtRatio = (value) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
/** @param {number} kb */
export const fmtMb = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : 'n/a');

/**
 * A Markdown table.
 * @param {string[]} head
 * @param {unknown[][]} rows
 */
export const markdownTable = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
