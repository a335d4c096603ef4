/**
 * `redirect_url?session_id=…&status=…` (API.md §9), keeping the tenant's own query parameters. Null for
 * a missing or non-http(s) URL (validated at session create, checked again because it is a redirect).
 */
export function hostedRedirectUrl(
  redirectUrl: string | null,
  sessionId: string,
  status: string,
): string | null {
  if (!redirectUrl) return null;
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('session_id', sessionId);
  url.searchParams.set('status', status);
  return url.href;
}
