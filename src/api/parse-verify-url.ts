/**
 * Splits a hosted-page link `{base}/verify/<token>` into the API base and the token, so the widget can
 * send the token in `x-verify-token` (never in a path or query, API.md §9).
 *
 * @example
 *   parseVerifyUrl('https://verify.example.com/verify/vt_abc')
 *   // → { apiBase: 'https://verify.example.com', token: 'vt_abc' }
 */
export function parseVerifyUrl(verifyUrl: string): { apiBase: string; token: string } | null {
  let url: URL;
  try {
    url = new URL(verifyUrl);
  } catch {
    return null;
  }
  const match = /^(.*)\/verify\/([^/]+)\/?$/.exec(url.pathname);
  if (!match?.[2]) return null;
  return { apiBase: url.origin + (match[1] ?? ''), token: decodeURIComponent(match[2]) };
}
