import type { Hono } from 'hono';
import type { AppDeps } from '../../../app-deps.ts';
import { ApiError } from '../../../errors/api-error.ts';
import type { AppEnv } from '../../app-env.ts';
import { IMMUTABLE, isTwinName, serveAsset } from '../../static-asset.ts';
import { CONSOLE_CSP } from './console-csp.ts';

/** Hashed asset names under one directory: nothing that could climb out of it. */
const ASSET_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  // The page names the current hashed assets: never cache it, so a deploy is picked up at once.
  'cache-control': 'no-store',
  'content-security-policy': CONSOLE_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

function notBuilt(): ApiError {
  return new ApiError(
    'service_unavailable',
    'The console is not built on this server: run `npx vite build --mode console` (part of `npm run build`).',
  );
}

/**
 * The tenant staff's console (server/web/console), on the API origin:
 * - `GET /console/assets/<hashed file>`: its scripts and styles, cached for a year (names change with their
 *   content), brotli- or gzip-encoded when the browser accepts it (server/http/static-asset.ts);
 * - `GET /console` and every other `/console/*` path: `index.html` under a strict CSP (console-csp.ts),
 *   so history-based routes like `/console/sessions/sess_…` survive a reload or a shared link.
 * Files come from `deps.consoleAssets` (node-console-assets.ts on Node); without it, or before the build,
 * these routes answer 503 with a problem document.
 *
 * @example
 *   registerConsole(app, deps); // beside registerHostedPage in createApp
 */
export function registerConsole(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/console/assets/*', async (c) => {
    const name = c.req.path.slice('/console/assets/'.length);
    const assets = deps.consoleAssets;
    if (!assets) throw notBuilt();
    if (!ASSET_PATH.test(name) || isTwinName(name)) return c.notFound();
    const response = await serveAsset(c.req.raw, (file) => assets.get(`assets/${file}`), name, {
      // vite names every console asset `[name]-[hash]`: a new build is a new URL.
      cacheControl: IMMUTABLE,
      headers: { 'cross-origin-resource-policy': 'same-origin' },
    });
    return response ?? c.notFound();
  });

  // The page (under 1 KB) goes as it is: compressing it would save a few hundred bytes per load.
  const page = async () => {
    const index = deps.consoleAssets ? await deps.consoleAssets.get('index.html') : null;
    if (!index) throw notBuilt();
    return new Response(index.body, { status: 200, headers: PAGE_HEADERS });
  };
  app.get('/console', page);
  app.get('/console/*', page);
}
