import type { RunMode } from '../app-deps.ts';
import type { Environment } from '../domain/api-key-format.ts';
import { ipVersion, nonPublicReason } from './ip-address.ts';

/**
 * `public_only`: https to public addresses only (production endpoints of a production-mode server).
 * `any`: http and loopback too (sandbox, and every endpoint of a development-mode server), so a developer
 * can point a webhook at their laptop.
 */
export type NetworkPolicy = 'public_only' | 'any';

export function networkPolicyFor(mode: RunMode, environment: Environment): NetworkPolicy {
  return mode === 'production' && environment === 'production' ? 'public_only' : 'any';
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

// Names that resolve inside the deployment whatever public DNS says (RFC 6761, cloud metadata names).
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa'];

/**
 * Checks everything about a webhook URL that needs no DNS: scheme, credentials, length, IP literals and
 * names that are internal by definition. Returns the reason it is refused, or null. The sender checks the
 * resolved addresses separately, at create time and again at each delivery.
 *
 * @example
 * urlProblem('https://10.0.0.1/hook', 'public_only') // 'the address 10.0.0.1 is private'
 */
export function urlProblem(value: string, policy: NetworkPolicy): string | null {
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
  if (policy === 'any') return null;
  if (url.protocol !== 'https:') return 'production endpoints must use https';
  // The URL parser has already normalised odd IPv4 spellings (0x7f.1, 2130706433) to dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipVersion(host)) {
    const reason = nonPublicReason(host);
    return reason ? `the address ${host} is ${reason}` : null;
  }
  const name = host.replace(/\.$/, '');
  if (name === 'localhost' || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return `the host ${host} is internal`;
  }
  if (!name.includes('.')) return `the host ${host} is not a fully qualified public name`;
  return null;
}

/** Returns the first refused address with its reason, or null when every address is public. */
export function addressesProblem(host: string, addresses: readonly string[]): string | null {
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  for (const address of addresses) {
    const reason = nonPublicReason(address);
    if (reason) return `the host ${host} resolves to ${address}, which is ${reason}`;
  }
  return null;
}
