import { isIPv4, isIPv6 } from 'node:net';

/** Domains whose mail servers ignore dots in the local part, and which are one mailbox service. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, so that every spelling of it shares one quota:
 * case is ignored, a `+tag` is dropped, and at Gmail dots are ignored and
 * googlemail.com is gmail.com. Only a quota key: mail still goes to the address as given.
 */
export function mailboxKey(email: string): string {
  const address = email.toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  const domain = address.slice(at + 1);
  let local = address.slice(0, at);
  // A '+' opens a tag only after a name: "+news" is a name of its own, not the empty mailbox.
  const tag = local.indexOf('+', 1);
  if (tag > 0) local = local.slice(0, tag);
  if (GMAIL_DOMAINS.has(domain)) return `${local.replaceAll('.', '')}@gmail.com`;
  return `${local}@${domain}`;
}

/**
 * The network a client address counts as: an IPv4 address itself, an IPv6 address
 * by its /64 (one subscriber's network; a client picks any address in it at will).
 * An IPv4-mapped IPv6 address is its IPv4 address. Anything else is kept as given.
 */
export function clientNetworkKey(ip: string): string {
  // A zone id names an interface of the receiving host, not a different client.
  const address = ip.split('%')[0].toLowerCase();
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head, tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
