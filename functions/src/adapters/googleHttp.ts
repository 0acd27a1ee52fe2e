import { Agent } from 'node:https';
import type { Socket } from 'node:net';

/**
 * How long firebase-admin's fetch of Google's public keys (to verify ID tokens) may go
 * without a byte before its socket is closed. It answers in well under a second; a
 * token check is then answered 503 `auth-unavailable` instead of holding the request
 * until the function times out.
 */
export const GOOGLE_CALL_IDLE_TIMEOUT_MS = 5_000;

/** The error a silent socket is closed with: not a code firebase-admin retries (ETIMEDOUT is, 4 times). */
export const IDLE_TIMEOUT_CODE = 'EIDLETIMEOUT';

/**
 * firebase-admin 13 sets no timeout on the public-key fetch (auth/token-verifier.js ->
 * utils/jwt.js UrlKeyFetcher sends without `timeout`, and the call has no option for
 * one); the hook it offers is the app's `httpAgent`, which all its HTTP/1 calls use.
 * Node arms an agent's `timeout` on every socket it creates or takes back into its
 * pool, but only emits 'timeout' there: this closes the socket, which fails the request.
 * Calls that carry firebase-admin's own timeout (the Auth API 25 s, FCM 15 s) set it on
 * their socket, replacing this one, so they keep theirs.
 */
export function withIdleTimeout<A extends Agent>(agent: A, timeoutMs: number): A {
  agent.options.timeout = timeoutMs;
  const createConnection = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket;
  agent.createConnection = (...args: unknown[]) => {
    const socket = createConnection(...args);
    const { host } = (args[0] ?? {}) as { host?: string };
    socket.setTimeout(timeoutMs);
    socket.on('timeout', () =>
      socket.destroy(
        Object.assign(new Error(`no answer from ${host ?? 'Google'} within ${timeoutMs} ms`), {
          code: IDLE_TIMEOUT_CODE,
        }),
      ),
    );
    return socket;
  };
  return agent;
}
