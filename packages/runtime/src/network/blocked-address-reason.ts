import { isIP } from 'node:net';

type Range = readonly [base: number, prefix: number, reason: string];

// IPv4 ranges a network tool never connects to (RFC 6890 special-purpose and private space).
const BLOCKED_IPV4: readonly Range[] = [
  [ipv4(0, 0, 0, 0), 8, 'the "this network" range 0.0.0.0/8'],
  [ipv4(10, 0, 0, 0), 8, 'a private address (10.0.0.0/8)'],
  [ipv4(100, 64, 0, 0), 10, 'a carrier-grade NAT address (100.64.0.0/10)'],
  [ipv4(127, 0, 0, 0), 8, 'a loopback address (127.0.0.0/8)'],
  [ipv4(169, 254, 0, 0), 16, 'a link-local address (169.254.0.0/16, where cloud metadata services live)'],
  [ipv4(172, 16, 0, 0), 12, 'a private address (172.16.0.0/12)'],
  [ipv4(192, 0, 0, 0), 24, 'an IETF protocol address (192.0.0.0/24)'],
  [ipv4(192, 0, 2, 0), 24, 'a documentation address (192.0.2.0/24)'],
  [ipv4(192, 168, 0, 0), 16, 'a private address (192.168.0.0/16)'],
  [ipv4(198, 18, 0, 0), 15, 'a benchmarking address (198.18.0.0/15)'],
  [ipv4(198, 51, 100, 0), 24, 'a documentation address (198.51.100.0/24)'],
  [ipv4(203, 0, 113, 0), 24, 'a documentation address (203.0.113.0/24)'],
  [ipv4(224, 0, 0, 0), 4, 'a multicast address (224.0.0.0/4)'],
  [ipv4(240, 0, 0, 0), 4, 'a reserved address (240.0.0.0/4)'],
];

/**
 * For tools that reach the network on the model's behalf (web_fetch, the command sandbox's proxy): why such a tool
 * must not connect to an IP address (loopback, private, link-local and cloud metadata, CGNAT, multicast, reserved;
 * IPv6 loopback, ULA, link-local, multicast, Teredo, and IPv4 addresses embedded in IPv6), or `undefined` when it is
 * a public address. A string that is not an IP is refused too. Check every address a host name resolves to.
 */
export function blockedAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return ipv4Reason(parseIPv4(bare));
  if (version === 6) return ipv6Reason(parseIPv6(bare));
  return `"${address}" is not an IP address`;
}

function ipv4Reason(value: number): string | undefined {
  if (value === 0xffffffff) return 'the broadcast address';
  for (const [base, prefix, reason] of BLOCKED_IPV4) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === base) return reason;
  }
  return undefined;
}

function ipv6Reason(groups: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const firstSix = g0 | g1 | g2 | g3 | g4 | g5;
  if (firstSix === 0 && g6 === 0 && g7 === 0) return 'the unspecified IPv6 address (::)';
  if (firstSix === 0 && g6 === 0 && g7 === 1) return 'the IPv6 loopback address (::1)';
  if ((g0 | g1 | g2 | g3 | g4) === 0 && g5 === 0xffff) return embeddedReason('an IPv4-mapped IPv6 address', embedded);
  if (firstSix === 0) return embeddedReason('an IPv4-compatible IPv6 address', embedded);
  if (g0 === 0x64 && g1 === 0xff9b && (g2 | g3 | g4 | g5) === 0) return embeddedReason('a NAT64 address', embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'a local-use NAT64 address (64:ff9b:1::/48)';
  if (g0 === 0x2002) return embeddedReason('a 6to4 address', ((g1 << 16) | g2) >>> 0);
  // Teredo tunnels to an IPv4 address hidden (inverted) in the last 32 bits; none is fetched.
  if (g0 === 0x2001 && g1 === 0) return 'a Teredo tunnel address (2001::/32)';
  if ((g0 & 0xfe00) === 0xfc00) return 'a unique local IPv6 address (fc00::/7)';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local IPv6 address (fe80::/10)';
  if ((g0 & 0xffc0) === 0xfec0) return 'a site-local IPv6 address (fec0::/10)';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast IPv6 address (ff00::/8)';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'a documentation IPv6 address (2001:db8::/32)';
  if (g0 === 0x0100 && (g1 | g2 | g3) === 0) return 'a discard-only IPv6 address (100::/64)';
  return undefined;
}

function embeddedReason(kind: string, value: number): string | undefined {
  const inner = ipv4Reason(value);
  return inner === undefined ? undefined : `${kind} of ${inner}`;
}

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function parseIPv4(text: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number);
  return ipv4(a, b, c, d);
}

/** Eight 16-bit groups of a valid IPv6 address (with `::` expanded and a trailing dotted quad converted). */
function parseIPv6(text: string): number[] {
  let source = text.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(source);
  if (dotted?.[1] !== undefined) {
    const value = parseIPv4(dotted[1]);
    source = `${source.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = source.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const all = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return all.map((group) => Number.parseInt(group, 16));
}
