/**
 * The demo shop page's Content-Security-Policy: as strict as the hosted page's (server/http/pages/hosted/hosted-csp.ts)
 * without a nonce, since the built page has no inline script or style. Scripts and styles from this origin
 * only; WebAssembly compilation ('wasm-unsafe-eval', not eval) for the widget's face model; the API, the
 * shop backend and the model files on this origin; captured photos previewed from blob: URLs; never framed.
 *
 * @example
 *   response.headers.set('content-security-policy', DEMO_CSP);
 */
export const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  // The sign-up form is handled by script; a native submission is a bug.
  "form-action 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');
