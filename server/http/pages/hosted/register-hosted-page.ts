import type { Context, Hono } from 'hono';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../app-env.ts';
import {
  type AssetResponseOptions,
  cacheControlForName,
  IMMUTABLE,
  isTwinName,
  serveAsset,
} from '../../static-asset.ts';
import { readSession } from '../../../features/sessions/transition-session.ts';
import { hashVerifyToken } from '../../../features/sessions/verify-token.ts';
import { findTenant } from '../../../store/tenants.ts';
import { findSessionByVerifyTokenHash } from '../../../store/verify-sessions.ts';
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

/** A path under one asset directory, or null: nothing that climbs out, and no `.br`/`.gz` twin. */
function safeAssetPath(path: string): string | null {
  return ASSET_PATH.test(path) && !path.split('/').includes('..') && !isTwinName(path) ? path : null;
}

/**
 * The script-tag entry keeps its name across releases and tenants link it by that URL: a short cache, then
 * a revalidation (a 304 while the ETag holds), so a release reaches every page within five minutes without
 * a request per page view. Chunks are `chunks/[name]-[hash].js` (vite.config.ts): immutable. Anything else
 * at the root (the entry's source map) is judged by its name.
 */
function sdkCacheControl(path: string): string {
  if (path === 'id-verify.js') return 'public, max-age=300';
  return path.startsWith('chunks/') ? IMMUTABLE : cacheControlForName(path);
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

  /** Files under `dir` of the widget assets at `urlPrefix`, through the shared static-asset rules. */
  const assetRoute =
    (urlPrefix: string, dir: string, options: (path: string) => AssetResponseOptions) =>
    async (c: Context<AppEnv>) => {
      const path = safeAssetPath(c.req.path.slice(urlPrefix.length));
      const assets = deps.widgetAssets;
      if (!assets) return unavailable();
      if (!path) return c.notFound();
      const load = (name: string) => assets.get(`${dir}${name}`);
      return (await serveAsset(c.req.raw, load, path, options(path))) ?? c.notFound();
    };
  // Loaded as module scripts and fetched (models, wasm) from tenants' pages: cross-origin reads need CORS.
  const CORS = { 'access-control-allow-origin': '*' };

  // The liveness step's face model (Human's browser bundle, the guidance models, tfjs wasm), imported
  // by the widget from this origin when that step opens. Versioned paths: cached for a year.
  app.get(
    '/sdk/vision/*',
    assetRoute('/sdk/', 'sdk/', () => ({ cacheControl: IMMUTABLE, headers: CORS })),
  );
  app.get(
    '/sdk/*',
    assetRoute('/sdk/', 'sdk/', (path) => ({ cacheControl: sdkCacheControl(path), headers: CORS })),
  );
  // vite names every file of the hosted build `assets/[name]-[hash]`: a new build is a new URL.
  app.get(
    '/hosted/assets/*',
    assetRoute('/hosted/assets/', 'hosted/assets/', () => ({ cacheControl: IMMUTABLE })),
  );

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
