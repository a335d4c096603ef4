/**
 * Classifies IP addresses for the SSRF guard. Pure and web-standard: the Node sender applies it to the
 * addresses DNS returns and to the socket's peer; routes apply it to IP-literal URLs.
 */

/** Parses dotted-quad IPv4 (the canonical form the URL parser and DNS produce). */
function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

/** Parses IPv6 (with `::` and an optional dotted IPv4 tail) into 8 sixteen-bit groups. */
function parseIpv6(input: string): number[] | null {
  let text = input.replace(/^\[|\]$/g, '');
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // A dotted IPv4 tail (`::ffff:127.0.0.1`) stands for the last two groups.
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    const high = (((v4[0] as number) << 8) | (v4[1] as number)).toString(16);
    const low = (((v4[2] as number) << 8) | (v4[3] as number)).toString(16);
    text = `${text.slice(0, lastColon + 1)}${high}:${low}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = toGroups(halves[0] as string);
  const rest = halves.length === 2 ? toGroups(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (groups.length !== 8 || groups.some((group) => !/^[0-9a-fA-F]{1,4}$/.test(group))) return null;
  return groups.map((group) => Number.parseInt(group, 16));
}

function inV4(bytes: number[], base: [number, number, number, number], prefix: number): boolean {
  const value = bytes.reduce((sum, byte) => sum * 256 + byte, 0);
  const start = base.reduce((sum, byte) => sum * 256 + byte, 0);
  const size = 2 ** (32 - prefix);
  return value >= start && value < start + size;
}

// Everything that is not globally routable unicast: RFC 6890 special-purpose registries.
const BLOCKED_V4: [[number, number, number, number], number, string][] = [
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'carrier-grade NAT'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local (cloud metadata)'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignment'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, '6to4 relay'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmarking'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved or broadcast'],
];

function classifyV4(bytes: number[]): string | null {
  for (const [base, prefix, reason] of BLOCKED_V4) if (inV4(bytes, base, prefix)) return reason;
  return null;
}

function classifyV6(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const embeddedV4 = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    if (g5 === 0xffff) return classifyV4(embeddedV4) ?? null; // IPv4-mapped: judge the IPv4 inside
    if (g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
    if (g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
    return 'IPv4-compatible (deprecated)';
  }
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address: judge that one.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return classifyV4(embeddedV4);
  }
  if ((g0 & 0xe000) !== 0x2000) {
    if ((g0 & 0xfe00) === 0xfc00) return 'unique local (private)';
    if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
    if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
    if ((g0 & 0xff00) === 0xff00) return 'multicast';
    return 'not global unicast';
  }
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  if (g0 === 0x2001 && g1 < 0x0200) return 'IETF protocol assignment (Teredo, ORCHID…)';
  if (g0 === 0x2002) return '6to4';
  return null;
}

/** IPv4 or IPv6 literal (brackets allowed), else null. */
export function ipVersion(text: string): 4 | 6 | null {
  if (parseIpv4(text)) return 4;
  if (text.includes(':') && parseIpv6(text)) return 6;
  return null;
}

/**
 * Why an address must not receive webhooks (`'loopback'`, `'private'`, `'link-local (cloud metadata)'`…),
 * or null when it is a public unicast address. Anything unparseable is refused.
 *
 * @example
 * nonPublicReason('169.254.169.254') // 'link-local (cloud metadata)'
 * nonPublicReason('::ffff:127.0.0.1') // 'loopback'
 * nonPublicReason('93.184.216.34')    // null
 */
export function nonPublicReason(address: string): string | null {
  const v4 = parseIpv4(address);
  if (v4) return classifyV4(v4);
  const v6 = address.includes(':') ? parseIpv6(address) : null;
  if (v6) return classifyV6(v6);
  return 'not an IP address';
}
