import type { Hono } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from '../http/app-env.ts';
import { readSession } from '../sessions/transition-session.ts';
import { hashVerifyToken } from '../sessions/verify-token.ts';
import { findTenant } from '../store/tenants.ts';
import { findSessionByVerifyTokenHash } from '../store/verify-sessions.ts';
import { hostedPageCsp, newNonce, withNonce } from './hosted-csp.ts';
import { hostedRedirectUrl } from './hosted-redirect-url.ts';

/** Statuses after which the end-user has nothing to do here: send them back to the tenant. */
const OVER = new Set(['approved', 'rejected', 'review_required', 'cancelled', 'expired']);
const TOKEN_SHAPE = /^[0-9A-Za-z]{20,64}$/;
/** Asset paths: hashed file names under one directory, nothing that could climb out of it. */
const ASSET_PATH = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  // The camera is the only powerful feature the page uses, and only for itself.
  'permissions-policy': 'camera=(self), microphone=(), geolocation=(), payment=()',
};

/** Whether an `accept-encoding` header allows gzip (`q=0` refuses it). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function safeAssetPath(path: string): string | null {
  return ASSET_PATH.test(path) && !path.split('/').includes('..') ? path : null;
}

/** Re-wraps an asset response with the caching and sharing rules of its route. */
function withHeaders(asset: Response, headers: Record<string, string>): Response {
  const response = new Response(asset.body, asset);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  response.headers.set('x-content-type-options', 'nosniff');
  return response;
}

/**
 * The end-user's pages, outside `/v1`: the hosted verification page `GET /verify/<token>`, its assets
 * under `/hosted/assets/`, the script-tag bundle `/sdk/id-verify.js` (+ its lazy chunks), and the liveness
 * step's face model under `/sdk/vision/` (node-vision-assets.ts on Node). Built files
 * come from `deps.widgetAssets` (the app has no file system); without it these routes answer 503.
 */
export function registerHostedPage(app: Hono<AppEnv>, deps: AppDeps): void {
  const unavailable = () =>
    new Response('The verification page is not available on this server (run `npm run build`).', {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });

  // The liveness step's face model (Human's browser bundle, the guidance models, tfjs wasm), imported
  // by the widget from this origin when that step opens. Versioned paths: cached for a year.
  app.get('/sdk/vision/*', async (c) => {
    const path = safeAssetPath(c.req.path.slice('/sdk/'.length));
    if (!deps.widgetAssets) return unavailable();
    // `.gz` twins are an internal convention between this route and the assets, never a URL.
    if (!path || path.endsWith('.gz')) return c.notFound();
    const gzipped = acceptsGzip(c.req.header('accept-encoding'))
      ? await deps.widgetAssets.get(`sdk/${path}.gz`)
      : null;
    const asset = gzipped ?? (await deps.widgetAssets.get(`sdk/${path}`));
    if (!asset) return c.notFound();
    return withHeaders(asset, {
      'cache-control': 'public, max-age=31536000, immutable',
      // Imported as a module and fetched (models, wasm) from tenants' pages too: cross-origin reads.
      'access-control-allow-origin': '*',
      vary: 'accept-encoding',
      ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
    });
  });

  app.get('/sdk/*', async (c) => {
    const path = safeAssetPath(c.req.path.slice('/sdk/'.length));
    if (!deps.widgetAssets) return unavailable();
    const asset = path ? await deps.widgetAssets.get(`sdk/${path}`) : null;
    if (!asset) return c.notFound();
    // The entry keeps its name across releases (short cache); chunks are content-hashed (immutable).
    const cache = path === 'id-verify.js' ? 'public, max-age=300' : 'public, max-age=31536000, immutable';
    // Loaded as a module script from tenants' pages: cross-origin reads need CORS.
    return withHeaders(asset, { 'cache-control': cache, 'access-control-allow-origin': '*' });
  });

  app.get('/hosted/assets/*', async (c) => {
    const path = safeAssetPath(c.req.path.slice('/hosted/assets/'.length));
    if (!deps.widgetAssets) return unavailable();
    const asset = path ? await deps.widgetAssets.get(`hosted/assets/${path}`) : null;
    if (!asset) return c.notFound();
    return withHeaders(asset, { 'cache-control': 'public, max-age=31536000, immutable' });
  });

  // Browsers ask every origin for /favicon.ico; a 404 there is a console error on the hosted page.
  app.get(
    '/favicon.ico',
    () => new Response(null, { status: 204, headers: { 'cache-control': 'public, max-age=86400' } }),
  );

  app.get('/verify/:token', async (c) => {
    const token = c.req.param('token');
    let allowedOrigins: readonly string[] = [];
    if (TOKEN_SHAPE.test(token)) {
      const found = await findSessionByVerifyTokenHash(deps.db, await hashVerifyToken(token));
      if (found) {
        const scope = { tenantId: found.tenant_id, environment: found.environment };
        // Applies expiry on read, like every other read of a session.
        const session = await readSession(deps.db, deps, scope, found.id, found);
        if (OVER.has(session.status)) {
          const target = hostedRedirectUrl(session.redirect_url, session.id, session.status);
          if (target) {
            return new Response(null, {
              status: 303,
              headers: { location: target, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
            });
          }
        }
        allowedOrigins = (await findTenant(deps.db, session.tenant_id))?.allowed_origins ?? [];
      }
    }
    // An unknown or malformed link still gets the page: the widget explains the problem in the
    // end-user's language (its first API call answers 401).
    if (!deps.widgetAssets) return unavailable();
    const page = await deps.widgetAssets.get('hosted/index.html');
    if (!page) return unavailable();
    const nonce = newNonce();
    return new Response(withNonce(await page.text(), nonce), {
      status: 200,
      headers: { ...PAGE_HEADERS, 'content-security-policy': hostedPageCsp(nonce, allowedOrigins) },
    });
  });
}
