import type { Environment } from '../domain/api-key-format.ts';

/**
 * Whether a browser page at `origin` may call the end-user endpoints for a session (API.md §9): the
 * hosted page's own origin, any origin the tenant listed in `allowed_origins`, and any origin at all in
 * the sandbox (tenants develop on localhost and preview hosts).
 *
 * @example
 * isAllowedVerifyOrigin('https://shop.example', { verifyBaseUrl, allowedOrigins: ['https://shop.example'], environment: 'production' }) // true
 */
export function isAllowedVerifyOrigin(
  origin: string,
  rules: { verifyBaseUrl: string; allowedOrigins: readonly string[]; environment: Environment },
): boolean {
  if (rules.environment === 'sandbox') return true;
  const normalised = normaliseOrigin(origin);
  if (normalised === null) return false;
  if (normalised === normaliseOrigin(rules.verifyBaseUrl)) return true;
  return rules.allowedOrigins.some((allowed) => normaliseOrigin(allowed) === normalised);
}

/** `scheme://host[:port]` in lower case with default ports dropped, or null for `null` and non-URLs. */
function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? null : url.origin.toLowerCase();
  } catch {
    return null;
  }
}
