import { BlockList, isIP } from 'node:net';
import type { Request } from 'firebase-functions/https';

/**
 * Fastly's published address ranges (https://api.fastly.com/public-ip-list, as of
 * 2026-10). Firebase Hosting is served by Fastly: a request rewritten by Hosting to the
 * function reaches Google's front end from one of these, so that front end appends a
 * Fastly address to X-Forwarded-For, and the client's own address arrives in
 * `Fastly-Client-IP`. Anyone can send that header straight to the function URL, so it
 * is believed only when the hop Google saw is Fastly's.
 */
const FASTLY_RANGES: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['23.235.32.0', 20, 'ipv4'],
  ['43.249.72.0', 22, 'ipv4'],
  ['103.244.50.0', 24, 'ipv4'],
  ['103.245.222.0', 23, 'ipv4'],
  ['103.245.224.0', 24, 'ipv4'],
  ['104.156.80.0', 20, 'ipv4'],
  ['140.248.64.0', 18, 'ipv4'],
  ['140.248.128.0', 17, 'ipv4'],
  ['146.75.0.0', 17, 'ipv4'],
  ['151.101.0.0', 16, 'ipv4'],
  ['157.52.64.0', 18, 'ipv4'],
  ['167.82.0.0', 17, 'ipv4'],
  ['167.82.128.0', 20, 'ipv4'],
  ['167.82.160.0', 20, 'ipv4'],
  ['167.82.224.0', 20, 'ipv4'],
  ['172.111.64.0', 18, 'ipv4'],
  ['185.31.16.0', 22, 'ipv4'],
  ['199.27.72.0', 21, 'ipv4'],
  ['199.232.0.0', 16, 'ipv4'],
  ['2a04:4e40::', 32, 'ipv6'],
  ['2a04:4e42::', 32, 'ipv6'],
];

let fastly: BlockList | undefined;

export function isFastlyAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (!fastly) {
    fastly = new BlockList();
    for (const [network, prefix, type] of FASTLY_RANGES) fastly.addSubnet(network, prefix, type);
  }
  return fastly.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const singleHeader = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value.trim() : undefined;

/**
 * The client's address, as the per-IP limits count it. On the function URL: the last
 * X-Forwarded-For hop, the one Google's front end appended (earlier entries are the
 * client's own claims), else the socket's address. Behind a Firebase Hosting rewrite
 * that hop is a Fastly address and the client is `Fastly-Client-IP`.
 */
export function clientIpOf(req: Pick<Request, 'headers' | 'socket'>): string {
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  const lastHop = hops.at(-1);
  if (lastHop !== undefined && isFastlyAddress(lastHop)) {
    const hostingClient = singleHeader(req.headers['fastly-client-ip']);
    if (hostingClient !== undefined && isIP(hostingClient) !== 0) return hostingClient;
  }
  return lastHop ?? req.socket?.remoteAddress ?? 'unknown';
}
