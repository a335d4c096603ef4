import type { Hono } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import { ApiError } from '../errors/api-error.ts';
import { migrationsComplete } from '../store/migrate.ts';
import type { AppEnv } from './app-env.ts';

/** A probe waits this long for the database; a load balancer's own timeout is usually a few seconds. */
export const READINESS_DATABASE_TIMEOUT_MS = 2000;

const PROBE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const LINKS = { docs: '/docs', openapi: '/v1/openapi.json', console: '/console' } as const;

const ROOT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>id-verify</title></head>
<body>
<h1>id-verify</h1>
<p>An identity verification API. Start here:</p>
<ul>
<li><a href="${LINKS.docs}">API reference</a></li>
<li><a href="${LINKS.openapi}">OpenAPI document</a></li>
<li><a href="${LINKS.console}">Console</a> for tenant staff</li>
</ul>
</body>
</html>`;

function notReady(reason: string): ApiError {
  return new ApiError('service_unavailable', `Not ready: ${reason}.`, { headers: { 'retry-after': '1' } });
}

/** Why the database part is not ready, or null; a slow database counts as unreachable. */
async function databaseProblem(deps: Pick<AppDeps, 'db'>): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READINESS_DATABASE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([migrationsComplete(deps.db), timeout]);
    if (outcome === 'timeout') return 'database_unreachable';
    return outcome ? null : 'migrations_pending';
  } catch {
    return 'database_unreachable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for load balancers and orchestrators, unauthenticated and telling nothing about the build or its
 * configuration:
 * - `GET /healthz`: the process answers (liveness), `{"status":"ok"}`, without touching the database;
 * - `GET /readyz`: it can serve traffic: the host is neither starting nor shutting down, its background
 *   workers run (or are deliberately off), the database answers and every migration is applied.
 *   `{"status":"ready"}`, else 503 `service_unavailable` naming the reason in a word;
 * - `GET /`: where to go from here (JSON, or a small page for a browser) instead of a 404.
 *
 * @example
 * registerHealthRoutes(app, deps); // in createApp
 * await app.request('/readyz'); // 200 {"status":"ready"}
 */
export function registerHealthRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, PROBE_HEADERS));

  app.get('/readyz', async (c) => {
    const host = deps.hostReadiness?.() ?? null;
    if (host) throw notReady(host);
    const database = await databaseProblem(deps);
    if (database) throw notReady(database);
    // Checked again: shutdown may have begun while the database answered.
    const after = deps.hostReadiness?.() ?? null;
    if (after) throw notReady(after);
    return c.json({ status: 'ready' }, 200, PROBE_HEADERS);
  });

  const rootHeaders = { ...PROBE_HEADERS, 'cache-control': 'public, max-age=300', vary: 'accept' };
  app.get('/', (c) =>
    /\btext\/html\b/.test(c.req.header('accept') ?? '')
      ? c.html(ROOT_PAGE, 200, rootHeaders)
      : c.json({ name: 'id-verify', links: LINKS }, 200, rootHeaders),
  );
}
