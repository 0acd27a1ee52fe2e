import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may send (contract §13): never to the service's own network or the
 * cloud's metadata server. An address is allowed only when ipaddr.js calls it plain
 * `unicast`: every range the library knows as special (private, loopback, link-local
 * with 169.254.169.254, unique-local with fd00:ec2::254, carrier-grade NAT,
 * multicast, reserved, ...) is refused, and an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`, `::ffff:7f00:1`) is judged as the IPv4 address it carries. The
 * other forms that embed an IPv4 address are refused whatever they carry (ipaddr.js
 * names them, except the first): IPv4-compatible `::/96` (deprecated by RFC 4291, which
 * ipaddr.js calls unicast when written in hex, `::7f00:1`, as URL parsing writes it),
 * NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32` and
 * the translated `::ffff:0:0:0/96`: a receiver has a plain address to be reached at.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The ports a production webhook may name: HTTPS's own and its common alternative. */
const WEBHOOK_PORTS = ['', '443', '8443'];

/** Names that lead to the machine itself or the metadata server whatever a resolver says. */
const REFUSED_NAMES = ['localhost', 'metadata', 'metadata.google.internal'];
const REFUSED_SUFFIXES = ['.localhost', '.internal', '.local'];

/** On the emulators a receiver on this machine is allowed over plain HTTP, by these names only. */
const EMULATOR_LOCAL_HOSTS = ['127.0.0.1', 'localhost'];

export interface WebhookTarget {
  url: URL;
  /** The host as a name to resolve, or an address literal (brackets removed). */
  host: string;
  /** An emulator-only local receiver: sent to as it is, without the public-address rule. */
  local: boolean;
}

/**
 * The URL as a webhook target, or why it is refused (a sentence). `emulator`: running
 * on the emulator suite, where `http://127.0.0.1` and `http://localhost` are allowed.
 * A name is checked here by its spelling only; its addresses are checked after each
 * resolution, before every delivery (adapters/webhookHttp.ts).
 */
export function webhookTarget(raw: string, emulator: boolean): WebhookTarget | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.username || url.password) return 'url must not carry a user name or password';
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  const local = emulator && url.protocol === 'http:' && EMULATOR_LOCAL_HOSTS.includes(host);
  if (local) return { url, host, local };
  if (url.protocol !== 'https:') {
    return emulator ? 'url must be https (or http to 127.0.0.1 or localhost on the emulators)' : 'url must be https';
  }
  // Any other port may be a service that is no web server (a database, SSH); the
  // emulators' receivers listen where they can.
  if (!emulator && !WEBHOOK_PORTS.includes(url.port)) return 'url must name port 443 or 8443 (or none)';
  if (ipaddr.isValid(host)) {
    return isPublicAddress(host) ? { url, host, local } : `url must not name a private or reserved address (${host})`;
  }
  if (REFUSED_NAMES.includes(host) || REFUSED_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !host.includes('.')) {
    return `url must name a public host (${host} is not)`;
  }
  return { url, host, local };
}
