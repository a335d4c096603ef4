import type { RunMode } from '../../app-config.ts';
import type { Environment } from '../../domain/api-key-format.ts';
import { type AddressCategory, type AddressVerdict, classifyAddress, ipVersion } from './ip-address.ts';

/**
 * Where a webhook endpoint may be, by server mode and key environment:
 * - `public_only` (production keys of a production-mode server): https, public addresses only;
 * - `sandbox` (sandbox keys of a production-mode server): http too, still public addresses only; loopback
 *   only where the operator allows it (`IDV_WEBHOOK_ALLOW_LOOPBACK=true`, see `allowLoopback`), never
 *   private, link-local or metadata addresses: a sandbox key must not reach the deployment's network;
 * - `local` (a development-mode server, the developer's machine): anything but link-local and cloud
 *   metadata addresses, so a receiver on the laptop or in a container beside it works.
 */
export type NetworkPolicy = 'public_only' | 'sandbox' | 'local';

export interface PolicyOptions {
  /** Lets the `sandbox` policy reach loopback (a receiver on the server's own machine, as in tests). */
  allowLoopback?: boolean;
  /** Judges an address: the web `classifyAddress` by default; the Node sender passes its `net.BlockList` one. */
  classify?: (address: string) => AddressVerdict | null;
}

/**
 * The policy for an endpoint of this key environment on a server in this mode.
 *
 * @example
 * networkPolicyFor('production', 'sandbox') // 'sandbox'
 */
export function networkPolicyFor(mode: RunMode, environment: Environment): NetworkPolicy {
  if (mode !== 'production') return 'local';
  return environment === 'production' ? 'public_only' : 'sandbox';
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

// Names that resolve inside the deployment whatever public DNS says (RFC 6761, cloud metadata names).
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa'];

/** The non-public categories the `local` policy still refuses: nothing on a laptop needs them. */
const REFUSED_LOCALLY: ReadonlySet<AddressCategory> = new Set(['metadata', 'link_local', 'invalid']);

/**
 * Whether `policy` lets a webhook go to an address of this kind (null: a public address).
 *
 * @example
 * policyAllows('sandbox', { category: 'loopback', reason: 'loopback' }, { allowLoopback: true }) // true
 */
export function policyAllows(
  policy: NetworkPolicy,
  verdict: AddressVerdict | null,
  options: PolicyOptions = {},
): boolean {
  if (!verdict) return true;
  if (policy === 'local') return !REFUSED_LOCALLY.has(verdict.category);
  return policy === 'sandbox' && options.allowLoopback === true && verdict.category === 'loopback';
}

/**
 * Why the policy refuses this address, or null.
 *
 * @example
 * addressProblem('10.0.0.1', 'sandbox') // 'the address 10.0.0.1 is private'
 */
export function addressProblem(
  address: string,
  policy: NetworkPolicy,
  options: PolicyOptions = {},
): string | null {
  const verdict = (options.classify ?? classifyAddress)(address);
  return policyAllows(policy, verdict, options) ? null : `the address ${address} is ${verdict?.reason}`;
}

/**
 * Checks everything about a webhook URL that needs no DNS: scheme, credentials, length, IP literals and
 * names that are internal by definition. Returns the reason it is refused, or null. The sender checks the
 * resolved addresses separately, at create time and again at each delivery.
 *
 * @example
 * urlProblem('https://10.0.0.1/hook', 'public_only') // 'the address 10.0.0.1 is private'
 */
export function urlProblem(value: string, policy: NetworkPolicy, options: PolicyOptions = {}): string | null {
  if (value.length > MAX_WEBHOOK_URL_LENGTH) return `it is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http(s) URLs can receive webhooks';
  if (url.username || url.password) {
    return 'it contains credentials; authenticate deliveries by their signature instead';
  }
  if (policy === 'public_only' && url.protocol !== 'https:') return 'production endpoints must use https';
  // The URL parser has already normalised odd IPv4 spellings (0x7f.1, 2130706433) to dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipVersion(host)) return addressProblem(host, policy, options);
  if (policy === 'local') return null;
  const name = host.replace(/\.$/, '');
  const loopbackName = name === 'localhost' || name.endsWith('.localhost');
  if (loopbackName && policy === 'sandbox' && options.allowLoopback) return null;
  if (loopbackName || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return `the host ${host} is internal`;
  }
  if (!name.includes('.')) return `the host ${host} is not a fully qualified public name`;
  return null;
}

/**
 * Returns the first address the policy refuses, with its reason, or null when every one is allowed.
 *
 * @example
 * addressesProblem('a.example', ['93.184.216.34', '10.1.2.3'], 'public_only')
 * // 'the host a.example resolves to 10.1.2.3, which is private'
 */
export function addressesProblem(
  host: string,
  addresses: readonly string[],
  policy: NetworkPolicy,
  options: PolicyOptions = {},
): string | null {
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  for (const address of addresses) {
    const verdict = (options.classify ?? classifyAddress)(address);
    if (!policyAllows(policy, verdict, options)) {
      return `the host ${host} resolves to ${address}, which is ${verdict?.reason}`;
    }
  }
  return null;
}
