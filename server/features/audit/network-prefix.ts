/**
 * The network a caller's address belongs to, for the audit log: IPv4 truncated to its /24, IPv6 to its /48
 * (an IPv4-mapped IPv6 address counts as IPv4). Truncated rather than hashed: a hash of an IPv4 address is
 * reversed by trying all 2³² of them, while the prefix keeps only what an admin needs (which network, which
 * provider) and drops the host. Anything that is not an IP address gives null.
 *
 * @example
 * networkPrefixOf('203.0.113.77')          // '203.0.113.0/24'
 * networkPrefixOf('2001:db8:85a3::8a2e:1') // '2001:db8:85a3::/48'
 * networkPrefixOf('unknown')              // null
 */
export function networkPrefixOf(address: string): string | null {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  const v4 = ipv4Octets(trimmed.replace(/^::ffff:/i, ''));
  if (v4) return `${v4[0]}.${v4[1]}.${v4[2]}.0/24`;
  const groups = ipv6Groups(trimmed.replace(/%.*$/, ''));
  if (!groups) return null;
  return `${groups
    .slice(0, 3)
    .map((group) => group.toString(16))
    .join(':')}::/48`;
}

function ipv4Octets(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return octets.every((octet) => octet >= 0 && octet <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded; null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  if (!text.includes(':') || text.split('::').length > 2) return null;
  const [head = '', tail] = text.split('::');
  const split = (part: string) => (part === '' ? [] : part.split(':'));
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  return all.map((group) => Number.parseInt(group, 16));
}
