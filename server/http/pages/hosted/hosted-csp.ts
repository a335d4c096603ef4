/**
 * The hosted page's Content-Security-Policy (API.md §9): scripts and styles from this origin or carrying
 * this response's nonce, no 'unsafe-inline', no 'unsafe-eval' (WebAssembly compilation only, for the
 * face model: 'wasm-unsafe-eval'); API calls and model downloads to this origin only; framing
 * only by the tenant's `allowed_origins` (`'none'` when it lists none).
 *
 * @example
 *   hostedPageCsp('r4nd0m', ['https://shop.example'])
 *   // → "default-src 'none'; script-src 'self' 'nonce-r4nd0m' 'wasm-unsafe-eval'; … frame-ancestors https://shop.example"
 */
export function hostedPageCsp(nonce: string, allowedOrigins: readonly string[]): string {
  const ancestors = allowedOrigins.map(frameSource).filter((o): o is string => o !== null);
  return [
    "default-src 'none'",
    // 'wasm-unsafe-eval' compiles WebAssembly only (the liveness step's face model runs on tfjs' wasm
    // backend); it does not allow eval() or new Function().
    `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    // Lit's <style> fallback (browsers without constructable stylesheets) carries the nonce too.
    `style-src 'self' 'nonce-${nonce}'`,
    // Captured photos are previewed from blob: URLs; the QR code is inline SVG (no image request).
    "img-src 'self' blob: data:",
    "media-src 'self' blob: mediastream:",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/** An origin as a CSP source, or null for anything that is not a plain http(s) origin. */
function frameSource(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** 128 random bits, base64: fresh for every response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Stamps the nonce on every `<script>` of the built page and into its `csp-nonce` meta tag. */
export function withNonce(page: string, nonce: string): string {
  return page.replaceAll('<script', `<script nonce="${nonce}"`).replaceAll('__CSP_NONCE__', nonce);
}
