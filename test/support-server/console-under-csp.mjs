// @ts-check
/**
 * web-test-runner middleware: `/console` and `/console/*` served by the real console routes
 * (server/http/pages/console/register-console.ts) from the real build (`npm run build:console`), under the real CSP,
 * for the console's `*.csp-test.ts` suites. Shared by the project's config and the console's own.
 */
import { Hono } from 'hono';
import { registerConsole } from '../../server/http/pages/console/register-console.ts';
import { nodeConsoleAssets } from '../../server/runtime/node/node-console-assets.ts';

const consoleApp = new Hono();
registerConsole(/** @type {any} */ (consoleApp), /** @type {any} */ ({ consoleAssets: nodeConsoleAssets() }));
consoleApp.onError(
  () => new Response('The console is not built: run `npm run build:console` first.', { status: 503 }),
);

/** @param {import('koa').Context} ctx @param {() => Promise<unknown>} next */
export async function consoleUnderCsp(ctx, next) {
  if (ctx.path !== '/console' && !ctx.path.startsWith('/console/')) return next();
  // No accept-encoding: the dev server sends the bytes as they are, uncompressed.
  const response = await consoleApp.fetch(new Request(new URL(ctx.url, 'http://localhost')));
  ctx.status = response.status;
  // Every header as served but COOP: it would cut the console's window off from the test that opens it
  // (test/node/console/console-page.test.ts checks the server's headers, this one the CSP in a browser).
  response.headers.forEach((value, name) => {
    if (name !== 'cross-origin-opener-policy') ctx.set(name, value);
  });
  ctx.body = Buffer.from(await response.arrayBuffer());
}
