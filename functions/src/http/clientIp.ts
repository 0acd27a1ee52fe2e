import type { Request } from 'firebase-functions/https';

/**
 * The client's address, as the per-IP limits count it: the last X-Forwarded-For hop,
 * the one Google's front end appended (earlier entries are the client's own claims),
 * else the socket's address. No forwarded header is believed beyond that, not even
 * `Fastly-Client-IP` behind a Firebase Hosting rewrite: nothing marks a request as
 * Hosting's that another Fastly service (or, Fastly says, the client itself) could
 * not copy, so behind Hosting the Fastly hop is the client (docs/operations.md).
 */
export function clientIpOf(req: Pick<Request, 'headers' | 'socket'>): string {
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  return hops.at(-1) ?? req.socket?.remoteAddress ?? 'unknown';
}
