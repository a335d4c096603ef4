import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from '../../../app-deps.ts';
import { ERROR_STATUS, ERROR_TITLE, type ErrorCode } from '../../../errors/error-codes.ts';
import type { AppEnv } from '../../app-env.ts';
import { REVALIDATE, serveAsset } from '../../static-asset.ts';

/**
 * Scalar needs inline styles for its layout; scripts come only from us. The page makes no request to
 * another origin (no CDN, no web fonts).
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const scalarConfiguration = JSON.stringify({
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
});

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>id-verify API reference</title>
</head>
<body>
<script id="api-reference" data-url="/v1/openapi.json" data-configuration="${escapeHtml(scalarConfiguration)}"></script>
<script src="/docs/assets/api-reference.js"></script>
</body>
</html>`;

function problemPage(code: ErrorCode): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${code}</title></head><body>
<h1><code>${code}</code></h1><p>HTTP ${ERROR_STATUS[code]}: ${escapeHtml(ERROR_TITLE[code])}.</p>
<p>The <code>detail</code> member of the problem says what to change; <code>param</code> names the field.
See the <a href="/docs">API reference</a>.</p></body></html>`;
}

/** `/docs` (a readable API reference rendered by Scalar, served locally) and the problem type pages. */
export function registerDocs(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const html = (body: string, status: 200 | 404 = 200) =>
    new Response(body, {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': DOCS_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
    });

  app.get('/docs', () => html(DOCS_PAGE));
  app.get('/docs/problems/:code', (c) => {
    const code = c.req.param('code');
    return code in ERROR_STATUS
      ? html(problemPage(code as ErrorCode))
      : html('<p>Unknown problem type.</p>', 404);
  });
  // 4.35 MB as it is, about 1.05 MB brotli-encoded (the Node host compresses it once, node-assets.ts).
  // Its name stays across releases of Scalar: revalidated by ETag on each load, a 304 while unchanged.
  app.get('/docs/assets/api-reference.js', async (c) => {
    const assets = deps.assets;
    const asset = assets
      ? await serveAsset(c.req.raw, (name) => assets.get(name), 'api-reference.js', {
          cacheControl: REVALIDATE,
        })
      : null;
    return asset ?? c.text('The API reference bundle is not available in this host.', 404);
  });
}
