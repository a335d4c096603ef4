/**
 * Classifies IP addresses for the SSRF guard. Web-standard (the browser mock runs it too): IPv6 text is
 * validated and normalised by the URL parser, never by hand. The Node sender judges resolved and peer
 * addresses with `net.BlockList` built from the same table (server/runtime/node/address-block-list.ts).
 */

/** What kind of non-public address it is; the network policies allow or refuse by category. */
export type AddressCategory =
  | 'metadata'
  | 'loopback'
  | 'link_local'
  | 'private'
  | 'cgnat'
  | 'special'
  /** Not an IP address at all: refused by every policy. */
  | 'invalid';

export interface SpecialRange {
  /** `a.b.c.d/n` or IPv6 `x::/n`. */
  cidr: string;
  category: AddressCategory;
  /** Completes "the address … is …". */
  reason: string;
}

const METADATA = 'a cloud metadata address';

/**
 * Every range that is not globally routable unicast (RFC 6890 registries), plus the cloud metadata
 * endpoints, most specific first: the first range that holds an address names it. IPv4-mapped
 * (`::ffff:0:0/96`) and NAT64 (`64:ff9b::/96`) addresses are judged by the IPv4 address inside, and every
 * IPv6 address outside `2000::/3` that no row names is `not global unicast`.
 */
export const SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '169.254.169.254/32', category: 'metadata', reason: METADATA },
  { cidr: '100.100.100.200/32', category: 'metadata', reason: METADATA },
  { cidr: '168.63.129.16/32', category: 'metadata', reason: METADATA },
  { cidr: 'fd00:ec2::254/128', category: 'metadata', reason: METADATA },
  { cidr: '0.0.0.0/8', category: 'special', reason: 'unspecified' },
  { cidr: '10.0.0.0/8', category: 'private', reason: 'private' },
  { cidr: '100.64.0.0/10', category: 'cgnat', reason: 'carrier-grade NAT' },
  { cidr: '127.0.0.0/8', category: 'loopback', reason: 'loopback' },
  { cidr: '169.254.0.0/16', category: 'link_local', reason: 'link-local' },
  { cidr: '172.16.0.0/12', category: 'private', reason: 'private' },
  { cidr: '192.0.0.0/24', category: 'special', reason: 'an IETF protocol assignment' },
  { cidr: '192.0.2.0/24', category: 'special', reason: 'documentation' },
  { cidr: '192.88.99.0/24', category: 'special', reason: 'a 6to4 relay' },
  { cidr: '192.168.0.0/16', category: 'private', reason: 'private' },
  { cidr: '198.18.0.0/15', category: 'special', reason: 'benchmarking' },
  { cidr: '198.51.100.0/24', category: 'special', reason: 'documentation' },
  { cidr: '203.0.113.0/24', category: 'special', reason: 'documentation' },
  { cidr: '224.0.0.0/4', category: 'special', reason: 'multicast' },
  { cidr: '240.0.0.0/4', category: 'special', reason: 'reserved or broadcast' },
  { cidr: '::/128', category: 'special', reason: 'unspecified' },
  { cidr: '::1/128', category: 'loopback', reason: 'loopback' },
  { cidr: '::/96', category: 'special', reason: 'IPv4-compatible (deprecated)' },
  { cidr: '64:ff9b:1::/48', category: 'special', reason: 'local-use NAT64' },
  { cidr: '100::/64', category: 'special', reason: 'discard-only' },
  { cidr: '2001:db8::/32', category: 'special', reason: 'documentation' },
  { cidr: '2001::/23', category: 'special', reason: 'an IETF protocol assignment (Teredo, ORCHID…)' },
  { cidr: '2002::/16', category: 'special', reason: '6to4' },
  { cidr: 'fc00::/7', category: 'private', reason: 'unique local (private)' },
  { cidr: 'fe80::/10', category: 'link_local', reason: 'link-local' },
  { cidr: 'fec0::/10', category: 'private', reason: 'site-local (private)' },
  { cidr: 'ff00::/8', category: 'special', reason: 'multicast' },
];

export interface AddressVerdict {
  category: AddressCategory;
  reason: string;
}

/** Parses a dotted quad (the canonical form the URL parser and DNS produce) into a 32-bit number. */
function ipv4Value(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255))
    return null;
  return parts.reduce((value, part) => (value << 8n) | BigInt(part), 0n);
}

/**
 * An IPv6 address as a 128-bit number. The URL parser validates the text and serialises it canonically
 * (lower-case hex groups, one `::`, an IPv4 tail turned into hex), so only `::` is left to expand.
 */
function ipv6Value(text: string): bigint | null {
  // A zone id (`fe80::1%eth0`) names an interface, not a different address; URLs do not take one.
  const bare = text.replace(/^\[|\]$/g, '').split('%')[0];
  let canonical: string;
  try {
    canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = canonical.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(zeros).fill('0'), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

const IPV4_MAPPED = 0xffff_0000_0000n;
const NAT64_PREFIX = 0x0064_ff9b_0000_0000_0000_0000_0000_0000n;

/** Any IP address as 128 bits, IPv4 as IPv4-mapped IPv6 (`::ffff:a.b.c.d`) so one table serves both. */
function addressValue(text: string): bigint | null {
  const v4 = ipv4Value(text);
  if (v4 !== null) return IPV4_MAPPED | v4;
  return text.includes(':') ? ipv6Value(text) : null;
}

function parseRange(range: SpecialRange): { base: bigint; shift: bigint } {
  const [address = '', bits = ''] = range.cidr.split('/');
  const v4 = ipv4Value(address);
  const value = v4 !== null ? IPV4_MAPPED | v4 : ipv6Value(address);
  if (value === null) throw new Error(`bad range ${range.cidr}`);
  const prefix = Number(bits) + (v4 !== null ? 96 : 0);
  const shift = BigInt(128 - prefix);
  return { base: value >> shift, shift };
}

const PARSED_RANGES = SPECIAL_RANGES.map((range) => ({ ...range, ...parseRange(range) }));

function inPrefix(value: bigint, base: bigint, bits: number): boolean {
  return value >> BigInt(128 - bits) === base >> BigInt(128 - bits);
}

/**
 * IPv4 or IPv6 literal (brackets allowed), else null.
 *
 * @example
 * ipVersion('[::1]') // 6
 */
export function ipVersion(text: string): 4 | 6 | null {
  if (ipv4Value(text) !== null) return 4;
  if (text.includes(':') && ipv6Value(text) !== null) return 6;
  return null;
}

/**
 * What kind of non-public address this is, or null for a public unicast address. Anything that does not
 * parse is `invalid` ("not an IP address"), which every policy refuses.
 *
 * @example
 * classifyAddress('169.254.169.254')  // { category: 'metadata', reason: 'a cloud metadata address' }
 * classifyAddress('::ffff:127.0.0.1') // { category: 'loopback', reason: 'loopback' }
 * classifyAddress('93.184.216.34')    // null
 */
export function classifyAddress(address: string): AddressVerdict | null {
  let value = addressValue(address);
  if (value === null) return { category: 'invalid', reason: 'not an IP address' };
  // NAT64 reaches the IPv4 address embedded in its last 32 bits: judge that one.
  if (inPrefix(value, NAT64_PREFIX, 96)) value = IPV4_MAPPED | (value & 0xffff_ffffn);
  for (const range of PARSED_RANGES) {
    if (value >> range.shift === range.base) return { category: range.category, reason: range.reason };
  }
  if (inPrefix(value, IPV4_MAPPED, 96)) return null; // a public IPv4 address
  if (!inPrefix(value, 0x2000n << 112n, 3)) return { category: 'special', reason: 'not global unicast' };
  return null;
}

/**
 * Why an address must not receive webhooks under the strictest policy (`'loopback'`, `'private'`,
 * `'a cloud metadata address'`…), or null when it is a public unicast address.
 *
 * @example
 * nonPublicReason('169.254.169.254') // 'a cloud metadata address'
 * nonPublicReason('93.184.216.34')   // null
 */
export function nonPublicReason(address: string): string | null {
  return classifyAddress(address)?.reason ?? null;
}
