/**
 * The console's Content-Security-Policy: everything from this origin only, nothing inline (no
 * 'unsafe-inline', no 'unsafe-eval', no nonce: the built page has no inline script or style), API calls to
 * this origin, images from this origin and `blob:` (evidence images are fetched with the console token and
 * shown from object URLs), never framed (the console holds a token worth clickjacking).
 *
 * @example
 *   response.headers.set('content-security-policy', CONSOLE_CSP);
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  // Every form is handled by script; a native submission anywhere is a bug, not a feature.
  "form-action 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');
