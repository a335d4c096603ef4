/**
 * Serving a static file the web-standard way, one rule set for every asset route (widget, hosted page,
 * console, /docs): content-coding negotiation over precompressed twins, a strong ETag per variant,
 * `If-None-Match` → 304, and the cache policy the route chooses.
 *
 * Assets come from a loader (`WidgetAssets`, `StaticAssets`) that knows nothing of HTTP: for a file
 * `name` it may also hold `name.br` and `name.gz`, the same bytes brotli- and gzip-compressed (written at
 * build by scripts/compress-assets.ts, or compressed once in memory by the Node loaders). Twins are an
 * internal convention between loader and route, never URLs. A loader may put the variant's `etag` on the
 * Response it returns (computed once, when it first read the bytes); without one it is computed here.
 */

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** What the loader calls each coding's twin (`<name><suffix>`). */
export const TWIN_SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz', identity: '' };

/** Whether a requested name is a twin: never a URL (it would be sent as the file, undecoded). */
export function isTwinName(name: string): boolean {
  return name.endsWith(TWIN_SUFFIX.br) || name.endsWith(TWIN_SUFFIX.gzip);
}

/** Our preference when the client weighs codings equally: smallest first. */
const SERVER_PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** For content-hashed file names: a new build is a new URL, so the old bytes never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** For stable URLs whose bytes change between releases: reuse only after revalidating the ETag (a 304). */
export const REVALIDATE = 'no-cache';

/**
 * vite's `[name]-[hash]`: 8 base64url characters before the extension (optionally `.map`). A hash with no
 * capital, digit or `_` is taken for a word (`-language.js`): the wrong guess then costs a revalidation,
 * never a stale file.
 */
const HASHED_NAME = /-(?=[A-Za-z0-9_-]{0,7}[A-Z0-9_])[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+(?:\.map)?$/;

/**
 * The cache policy a file's name calls for: {@link IMMUTABLE} for a content-hashed name (vite's
 * `index-Dca1x2MZ.js`), {@link REVALIDATE} for a name that stays across releases (`id-verify.js`,
 * `id-verify.js.map`, `api-reference.js`).
 *
 * @example
 *   cacheControlForName('chunks/fr-Bq3xZ9aK.js'); // 'public, max-age=31536000, immutable'
 *   cacheControlForName('id-verify.js.map');      // 'no-cache'
 */
export function cacheControlForName(name: string): string {
  return HASHED_NAME.test(name) ? IMMUTABLE : REVALIDATE;
}

/** Each coding's q-value in an `accept-encoding` header; `*` under its own name. */
function weights(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawCoding = '', ...params] = part.split(';');
    let coding = rawCoding.trim().toLowerCase();
    if (!coding) continue;
    // RFC 9110 §8.4.1.3: a recipient should treat x-gzip as gzip.
    if (coding === 'x-gzip') coding = 'gzip';
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    // A malformed q-value counts as a refusal rather than a wish.
    found.set(coding, Number.isFinite(q) && q > 0 ? Math.min(q, 1) : 0);
  }
  return found;
}

/**
 * The codings the client accepts (RFC 9110 §12.5.3), best first: highest q-value, then brotli > gzip >
 * identity among equals; `q=0` refuses a coding, `*` stands for every coding not named, and identity
 * not named ranks with the lowest q-value the client gave. Without the
 * header, identity only: a client that said nothing (curl, a script) is not sent bytes it may not decode.
 * Identity is always last as a last resort: a client that refuses every coding still gets the file.
 *
 * @example
 *   acceptableCodings('gzip, deflate, br'); // ['br', 'gzip', 'identity']
 *   acceptableCodings('br;q=0, *');        // ['gzip', 'identity']
 *   acceptableCodings(null);               // ['identity']
 */
export function acceptableCodings(header: string | null | undefined): ContentCoding[] {
  if (header === null || header === undefined) return ['identity'];
  const q = weights(header);
  const star = q.get('*');
  // Identity is acceptable unless refused, but as the least wanted coding the client listed (as the
  // `negotiator` package does): `br;q=0.5` means "brotli rather than nothing", not "plain first".
  const implicitIdentity = Math.min(1, ...[...q.values()].filter((weight) => weight > 0));
  const weightOf = (coding: ContentCoding): number =>
    q.get(coding) ?? star ?? (coding === 'identity' ? implicitIdentity : 0);
  const ranked = SERVER_PREFERENCE.filter((coding) => weightOf(coding) > 0).sort(
    // Array#sort is stable: equal weights keep the server's preference order.
    (a, b) => weightOf(b) - weightOf(a),
  );
  return ranked.includes('identity') ? ranked : [...ranked, 'identity'];
}

/**
 * A strong ETag for these bytes: SHA-256, first 128 bits, base64url. Stable across processes and
 * instances (unlike a modification time), so a rolling deploy does not invalidate every cache.
 */
export async function strongEtag(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)).subarray(0, 16);
  const base64 = btoa(String.fromCharCode(...digest));
  return `"${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}

/**
 * Whether an `If-None-Match` header matches this ETag: weak comparison, as RFC 9110 §13.1.2 requires for
 * this header (`W/"x"` matches `"x"`), and `*` matches any current representation.
 */
export function ifNoneMatchMatches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || opaque(candidate) === wanted;
  });
}

export interface AssetResponseOptions {
  /** `cache-control` of the 200 and the 304: {@link IMMUTABLE}, {@link REVALIDATE}, or the route's own. */
  cacheControl: string;
  /** Headers the route adds to both (CORS, resource policy). */
  headers?: Record<string, string>;
}

/**
 * The response for the asset `name` from `load`, or null when the loader has no such file: the best
 * variant the request accepts, with `content-encoding`, `vary: accept-encoding`, the variant's ETag and
 * the route's cache policy; a 304 without a body when `If-None-Match` names that ETag.
 *
 * @example
 *   app.get('/sdk/*', async (c) =>
 *     (await serveAsset(c.req.raw, (p) => assets.get(`sdk/${p}`), 'id-verify.js', { cacheControl: REVALIDATE }))
 *       ?? c.notFound());
 */
export async function serveAsset(
  request: Request,
  load: (name: string) => Promise<Response | null>,
  name: string,
  options: AssetResponseOptions,
): Promise<Response | null> {
  let coding: ContentCoding | undefined;
  let variant: Response | null = null;
  for (const candidate of acceptableCodings(request.headers.get('accept-encoding'))) {
    variant = await load(`${name}${TWIN_SUFFIX[candidate]}`);
    if (variant) {
      coding = candidate;
      break;
    }
  }
  if (!variant || !coding) return null;

  let body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null = variant.body;
  let etag = variant.headers.get('etag');
  if (!etag) {
    const bytes = new Uint8Array(await variant.arrayBuffer());
    etag = await strongEtag(bytes);
    body = bytes;
  }
  const shared: Record<string, string> = {
    ...options.headers,
    etag,
    'cache-control': options.cacheControl,
    vary: 'accept-encoding',
  };
  if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) {
    // RFC 9110 §15.4.5: a 304 carries the validators and caching headers the 200 would, and no body.
    if (body instanceof ReadableStream) await body.cancel();
    return new Response(null, { status: 304, headers: shared });
  }
  const headers = new Headers(shared);
  headers.set('content-type', variant.headers.get('content-type') ?? 'application/octet-stream');
  headers.set('x-content-type-options', 'nosniff');
  if (coding !== 'identity') headers.set('content-encoding', coding);
  return new Response(body, { status: 200, headers });
}
