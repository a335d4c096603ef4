import type { Hono } from 'hono';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../app-env.ts';
import { IMMUTABLE, isTwinName, serveAsset } from '../../static-asset.ts';
import { DEMO_CSP } from './demo-csp.ts';

/** Hashed asset names under one directory: nothing that could climb out of it. */
const ASSET_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const TENANT_PREFIX = '/demo/tenant';
/** The shop backend takes small JSON bodies (a user id, a webhook event): nothing near this. */
const MAX_TENANT_BODY_BYTES = 64 * 1024;

const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': DEMO_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  // The embedded widget uses the camera, for this page only.
  'permissions-policy': 'camera=(self), microphone=(), geolocation=(), payment=()',
};

function notBuilt(): Response {
  return new Response('The demo shop is not built on this server: run `npm run build`.', {
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The demo shop ("Acme Shop", demo/) on a development server, when `deps.demo` is given
 * (server/runtime/node/build-node-deps.ts gives it in development mode only; a production server has no
 * `/demo` routes at all):
 * - `GET /demo/`: the shop's page (demo/dist/index.html) under a strict CSP (demo-csp.ts);
 * - `GET /demo/assets/<hashed file>`: its script and styles, the widget included, cached for a year;
 * - `/demo/tenant/*`: the shop's own backend (demo/tenant-backend.ts), which holds the development
 *   tenant's sandbox key, calls this server's API with `@id-verify/node` and receives its webhooks.
 *
 * @example
 *   registerDemo(app, deps); // beside registerConsole in createApp
 */
export function registerDemo(app: Hono<AppEnv>, deps: AppDeps): void {
  const demo = deps.demo;
  if (!demo) return;

  app.get('/demo', (c) => c.redirect('/demo/', 308));
  app.get('/demo/', async () => {
    const page = await demo.assets.get('index.html');
    if (!page) return notBuilt();
    return new Response(page.body, { status: 200, headers: PAGE_HEADERS });
  });
  app.get('/demo/assets/*', async (c) => {
    const name = c.req.path.slice('/demo/assets/'.length);
    if (!ASSET_PATH.test(name) || isTwinName(name)) return c.notFound();
    const response = await serveAsset(c.req.raw, (file) => demo.assets.get(`assets/${file}`), name, {
      cacheControl: IMMUTABLE,
      headers: { 'cross-origin-resource-policy': 'same-origin' },
    });
    return response ?? ((await demo.assets.get('index.html')) ? c.notFound() : notBuilt());
  });
  app.all(`${TENANT_PREFIX}/*`, async (c) => {
    const request = c.req.raw;
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(TENANT_PREFIX.length);
    if (Number(request.headers.get('content-length') ?? 0) > MAX_TENANT_BODY_BYTES) {
      return c.json({ error: 'payload_too_large' }, 413);
    }
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer();
    if (body && body.byteLength > MAX_TENANT_BODY_BYTES) return c.json({ error: 'payload_too_large' }, 413);
    return demo.tenant(
      new Request(url, { method: request.method, headers: request.headers, ...(body ? { body } : {}) }),
    );
  });
}
