// Timing helpers of the benchmark: a keep-alive HTTP client and a closed-loop load
// runner (N workers, each sending its next request when the last one answered).
// Percentiles and medians are in scripts/lib/stats.mjs.
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * One HTTP request; resolves with { status, body, ms } (never rejects on an HTTP
 * status, rejects on a network error). `agent: false` opens a fresh connection.
 */
export function request({ url, method = 'GET', headers = {}, body, agent }) {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const target = new URL(url);
  const allHeaders = { ...headers };
  if (payload !== undefined) {
    allHeaders['content-type'] ??= 'application/json';
    allHeaders['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers: allHeaders, agent },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const keepAliveAgent = (connections) => new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });

/**
 * Closed loop: `concurrency` workers share `total` operations. `operation(worker, index)`
 * returns a promise of { ok, detail }; each one is timed. Failures are counted and
 * the first few kept, not thrown, so a run always reports.
 */
export async function closedLoop({ concurrency, total, operation }) {
  const latencies = [];
  const failures = [];
  let next = 0;
  const started = performance.now();
  const worker = async (w) => {
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
        if (failures.length < 5) failures.push(outcome.detail);
        failures.count = (failures.count ?? 0) + 1;
      } else latencies.push(ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = performance.now() - started;
  return { latencies, failed: failures.count ?? 0, failures, elapsedMs: elapsed, perSecond: (latencies.length / elapsed) * 1000 };
}

export const fmtMs = (value) => (Number.isFinite(value) ? (value >= 100 ? value.toFixed(0) : value.toFixed(1)) : 'n/a');
export const fmtRatio = (value) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
export const fmtMb = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : 'n/a');
