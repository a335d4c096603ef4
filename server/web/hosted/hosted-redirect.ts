import type { SessionStatus } from '../../../src/api/verify-api.ts';

/**
 * Where the hosted page sends the end-user at a final status: the tenant's `redirect_url` with
 * `session_id` and `status` added (API.md §9), or null without one (the page then stays on the result).
 * Only http(s) targets: anything else (e.g. `javascript:`) is ignored.
 *
 * @example
 *   redirectTarget('https://shop.example/done?x=1', 'sess_1', 'approved')
 *   // → 'https://shop.example/done?x=1&session_id=sess_1&status=approved'
 */
export function redirectTarget(
  redirectUrl: string | null | undefined,
  sessionId: string | null | undefined,
  status: SessionStatus,
): string | null {
  if (!redirectUrl || !sessionId) return null;
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
