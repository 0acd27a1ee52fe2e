// A kiosk talking to the API: with its key (and an Idempotency-Key on a deposit),
// sending the same request again until it gets an answer. What the load test, the
// bench, the kiosk simulator (simulator.ts, `npm run kiosk`) and the tests
// share: one retry loop.

export interface KioskSubmission {
  apiKey: string;
  idempotencyKey: string;
  body: unknown;
}

export interface KioskAnswer {
  status: number;
  /** Parsed JSON (undefined if the body is not JSON); loosely typed, as each caller checks the shape it expects. */
  body: any;
  attempts: number;
  headers?: Headers;
}

export interface RetryPolicy {
  /** Sends at most this many times; after the last, its response is the answer (a connection error is thrown). */
  attempts: number;
  /** The pause after attempt number `attempt` (1, 2, ...); a longer Retry-After of the answer wins. */
  pauseMs: (attempt: number) => number;
  /** Whether a status is an answer; anything else is sent again, as is a broken connection. */
  isAnswer: (status: number) => boolean;
  /** A request unanswered for this long counts as a broken connection (default 60 s). */
  timeoutMs?: number;
}

/** What the service may answer differently a moment later: a 5xx, and 429 (too many requests). */
export const isRetryableStatus = (status: number): boolean => status >= 500 || status === 429;

/** A kiosk's own rule: a 5xx, a 429 or a broken connection is sent again, 10 times at most, waiting 250 ms longer each time. */
export const KIOSK_RETRIES: RetryPolicy = {
  attempts: 10,
  pauseMs: (attempt) => 250 * attempt,
  isAnswer: (status) => !isRetryableStatus(status),
};

/**
 * Exponential backoff with jitter, as firmware retries: the n-th pause is a random
 * time between half and all of `firstMs * 2^(n-1)`, at most `capMs`.
 */
export const backoffRetries = ({
  attempts,
  firstMs = 500,
  capMs = 30_000,
}: {
  attempts: number;
  firstMs?: number;
  capMs?: number;
}): RetryPolicy => ({
  attempts,
  pauseMs: (attempt) => Math.min(capMs, firstMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2),
  isAnswer: (status) => !isRetryableStatus(status),
});

/** How requests leave the kiosk: `fetch`, or a wrapper around it that injects a network's faults. */
export type Transport = (url: string, init: RequestInit) => Promise<Response>;

/** What a network may do to one request: lose the answer after the service received it, or drop the request. */
export type NetworkFault = 'lose-answer' | 'drop';

/**
 * A transport over `transport` (default fetch) that injects the network faults
 * `faultFor` picks for the n-th request (0, 1, ...) to `url`: 'drop' fails it before
 * it is sent, 'lose-answer' sends it, waits for the whole answer, then fails as a
 * broken connection would, so the service has done the work and the kiosk does not
 * know. `injected` counts both.
 */
export function faultyTransport(
  faultFor: (url: string, n: number) => NetworkFault | undefined,
  transport: Transport = fetch,
): Transport & { injected: Record<NetworkFault, number> } {
  let n = 0;
  const injected: Record<NetworkFault, number> = { 'lose-answer': 0, drop: 0 };
  const faulty = async (url: string, init: RequestInit) => {
    const fault = faultFor(url, n++);
    if (fault) injected[fault] += 1;
    if (fault === 'drop') throw new TypeError('fetch failed (request dropped by the injected fault)');
    const response = await transport(url, init);
    if (fault !== 'lose-answer') return response;
    await response.arrayBuffer();
    throw new TypeError('fetch failed (answer lost by the injected fault)');
  };
  return Object.assign(faulty, { injected });
}

export interface SendHooks {
  /** Every response (status, body text, time from send to body), retries included. */
  onResponse?: (status: number, text: string, ms: number) => void;
  /** Before each pause: the attempt that failed, why, and how long the kiosk waits. */
  onRetry?: (attempt: number, reason: string, pauseMs: number) => void;
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
}

export const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** Retry-After in ms (delay-seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST `body` as JSON to `path` of `api` with `headers`, sent again under `policy` on
 * a broken connection, a timeout, or a status that is no answer, after the policy's
 * pause or the answer's Retry-After, whichever is longer. Resolves with the answer;
 * throws the last connection error when every attempt failed that way.
 */
export async function postWithRetries(
  api: string,
  path: string,
  { headers, body }: { headers: Record<string, string>; body: unknown },
  policy: RetryPolicy = KIOSK_RETRIES,
  { onResponse, onRetry, transport = fetch, sleep = pause }: SendHooks = {},
): Promise<KioskAnswer> {
  const payload = JSON.stringify(body);
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    let reason: string;
    let waitAtLeastMs = 0;
    try {
      const response = await transport(`${api}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
        signal: AbortSignal.timeout(policy.timeoutMs ?? 60_000),
      });
      const text = await response.text();
      onResponse?.(response.status, text, performance.now() - started);
      if (policy.isAnswer(response.status) || attempt >= policy.attempts) {
        return { status: response.status, body: parseJson(text), attempts: attempt, headers: response.headers };
      }
      reason = `answered ${response.status}`;
      waitAtLeastMs = retryAfterMs(response.headers.get('retry-after')) ?? 0;
    } catch (error) {
      if (attempt >= policy.attempts) throw error;
      reason = `no answer (${error instanceof Error ? error.message : String(error)})`;
    }
    const pauseMs = Math.max(policy.pauseMs(attempt), waitAtLeastMs);
    onRetry?.(attempt, reason, pauseMs);
    await sleep(pauseMs);
  }
}

/**
 * POST `path` of `api` with the kiosk's key (and `idempotencyKey` as the header when
 * given), sent again as postWithRetries does.
 */
export const postAsKiosk = (
  api: string,
  path: string,
  { apiKey, idempotencyKey, body }: { apiKey: string; idempotencyKey?: string; body: unknown },
  policy: RetryPolicy = KIOSK_RETRIES,
  hooks: SendHooks = {},
): Promise<KioskAnswer> =>
  postWithRetries(
    api,
    path,
    {
      headers: { 'x-api-key': apiKey, ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }) },
      body,
    },
    policy,
    hooks,
  );

/**
 * POST /kiosk/transaction of `api` as a kiosk sends it. `onResponse` sees every
 * response (its status, body text and time from send to body), retries included.
 */
export const submitAsKiosk = (
  api: string,
  { apiKey, idempotencyKey, body }: KioskSubmission,
  policy: RetryPolicy = KIOSK_RETRIES,
  onResponse?: (status: number, text: string, ms: number) => void,
): Promise<KioskAnswer> =>
  postAsKiosk(api, '/kiosk/transaction', { apiKey, idempotencyKey, body }, policy, { onResponse });
