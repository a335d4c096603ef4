const NEVER_FRAMED = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers for every JSON API response (`/v1/…`): never cached (responses may hold personal data), never
 * sniffed, never framed or rendered as a page. A route's own `cache-control` or
 * `content-security-policy` wins; the other two are enforced.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': NEVER_FRAMED,
  'referrer-policy': 'no-referrer',
};

/** Puts the API headers on a response that was built without them (a problem document, a replay). */
export function completeApiHeaders(headers: Headers): void {
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  if (headers.get('x-content-type-options') !== 'nosniff') headers.set('x-content-type-options', 'nosniff');
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', NEVER_FRAMED);
  if (headers.get('referrer-policy') !== 'no-referrer') headers.set('referrer-policy', 'no-referrer');
}
