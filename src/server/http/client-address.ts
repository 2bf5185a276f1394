import { isIPv4, isIPv6 } from 'node:net';

// Per-address limits count a network, not an address. One IPv6 subscriber is handed a whole /64 at
// least (RFC 6177), so a key per full address would give one person 2^64 fresh budgets: IPv6 is keyed
// by its /64. IPv4 stays per address (one carrier NAT hides many honest people behind a /24). An IPv4
// address written as IPv6 (`::ffff:203.0.113.9`, as a dual-stack socket reports it) is that IPv4 address.

/** The 8 groups of an IPv6 address (zone dropped, `::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0] ?? '';
  if (!isIPv6(text)) return undefined;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const split = (part: string) => (part ? part.split(':') : []);
  const groups =
    rest === undefined
      ? split(head)
      : [...split(head), ...Array(8 - split(head).length - split(rest).length).fill('0'), ...split(rest)];
  return groups.map((group) => Number.parseInt(group, 16));
}

/**
 * The key a per-address limit counts a client under: an IPv4 address as it is, an IPv6 address as its
 * /64 (`2001:db8:1:2::/64`, the same however the address is written), an IPv4-mapped IPv6 address as
 * the IPv4 address. Anything else (no address) is kept as it is.
 */
export function addressKey(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [g5 = 0, g6 = 0, g7 = 0] = groups.slice(5);
  if (groups.slice(0, 5).every((group) => group === 0) && g5 === 0xffff)
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
