import type { Hono } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import { ApiError } from '../errors/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
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

/** Whether an `accept-encoding` header allows gzip (`q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function notBuilt(): ApiError {
  return new ApiError(
    'service_unavailable',
    'The console is not built on this server: run `npx vite build --mode console` (part of `npm run build`).',
  );
}

/**
 * The tenant staff's console (src/console), on the API origin:
 * - `GET /console/assets/<hashed file>`: its scripts and styles, cached for a year (names change with their
 *   content), gzip-encoded when the browser accepts it (the build writes `.gz` twins);
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
    if (!deps.consoleAssets) throw notBuilt();
    // `.gz` twins are an internal convention between the build and this route, never a URL.
    if (!ASSET_PATH.test(name) || name.endsWith('.gz')) return c.notFound();
    const gzipped = acceptsGzip(c.req.header('accept-encoding'))
      ? await deps.consoleAssets.get(`assets/${name}.gz`)
      : null;
    const asset = gzipped ?? (await deps.consoleAssets.get(`assets/${name}`));
    if (!asset) return c.notFound();
    const response = new Response(asset.body, asset);
    response.headers.set('cache-control', 'public, max-age=31536000, immutable');
    response.headers.set('x-content-type-options', 'nosniff');
    response.headers.set('cross-origin-resource-policy', 'same-origin');
    response.headers.set('vary', 'accept-encoding');
    if (gzipped) response.headers.set('content-encoding', 'gzip');
    return response;
  });

  const page = async () => {
    const index = deps.consoleAssets ? await deps.consoleAssets.get('index.html') : null;
    if (!index) throw notBuilt();
    return new Response(index.body, { status: 200, headers: PAGE_HEADERS });
  };
  app.get('/console', page);
  app.get('/console/*', page);
}
