import { BlockList, isIP } from 'node:net';
import { type AddressVerdict, SPECIAL_RANGES } from '../../features/webhooks/ip-address.ts';

interface Rule {
  list: BlockList;
  verdict: AddressVerdict;
}

/** `a.b.c.d/n` as the NAT64 (`64:ff9b::/96`) subnet that reaches it. */
function nat64Subnet(address: string, prefix: number): [string, number] {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return [`64:ff9b::${high}:${low}`, 96 + prefix];
}

function buildRules(): Rule[] {
  const rules = SPECIAL_RANGES.map(({ cidr, category, reason }) => {
    const list = new BlockList();
    const [address = '', bits = ''] = cidr.split('/');
    const prefix = Number(bits);
    if (isIP(address) === 4) {
      // A v4 rule also holds the IPv4-mapped form (`::ffff:a.b.c.d`) by itself; NAT64 needs its own.
      list.addSubnet(address, prefix, 'ipv4');
      list.addSubnet(...nat64Subnet(address, prefix), 'ipv6');
    } else {
      list.addSubnet(address, prefix, 'ipv6');
    }
    return { list, verdict: { category, reason } };
  });
  // Everything outside 2000::/3 no row named, except the two prefixes judged by the IPv4 address inside.
  const outside = new BlockList();
  outside.addRange('::', '::fffe:ffff:ffff', 'ipv6');
  outside.addRange('::1:0:0:0', '64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv6');
  outside.addRange('64:ff9b::1:0:0', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv6');
  outside.addRange('4000::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv6');
  rules.push({ list: outside, verdict: { category: 'special', reason: 'not global unicast' } });
  return rules;
}

const RULES = buildRules();

/**
 * The Node classifier for resolved and peer addresses: Node's own address parser and `net.BlockList`
 * over the table of server/features/webhooks/ip-address.ts, with the same verdicts as its web `classifyAddress`
 * (a test holds them to it). Text Node does not take for an IP address is refused.
 *
 * @example
 * classifyAddressWithBlockList('fd00:ec2::254') // { category: 'metadata', reason: 'a cloud metadata address' }
 */
export function classifyAddressWithBlockList(address: string): AddressVerdict | null {
  // A zone id (`fe80::1%eth0`) makes BlockList answer "no match": judge the address without it.
  const bare = address.split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 0) return { category: 'invalid', reason: 'not an IP address' };
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const rule of RULES) if (rule.list.check(bare, type)) return rule.verdict;
  return null;
}
