import { type HttpHandler, http } from 'msw';
import type { MockApi } from './create-mock-api.ts';

/** The API: what the mock answers by default. */
export const API_PATHS = ['/v1/*'] as const;

/**
 * The end-user pages the app also serves (the hosted page `/verify/<token>`, its assets, the script-tag
 * bundle). Opt in where the mock owns the hosted-page origin and has `deps.widgetAssets`; leave them out
 * where a dev server serves those paths itself.
 */
export const HOSTED_PAGE_PATHS = ['/verify/*', '/hosted/*', '/sdk/*'] as const;

export interface MockHandlerOptions {
  /** Path patterns handed to the app on both origins (default {@link API_PATHS}). */
  paths?: readonly string[];
}

/**
 * The MSW request handlers of a mock: every `/v1/*` request on the API origin (and on the hosted-page
 * origin, where the widget calls `/v1/verify/*`) goes to the same Hono app the server runs. Nothing is
 * re-implemented here, so the mock cannot drift from the server.
 *
 * @example
 * const mock = await createMockApi({ origin: 'https://api.example.com' });
 * const server = setupServer(...mockHandlers(mock));
 * // the hosted page too, when the mock owns its origin:
 * mockHandlers(mock, { paths: [...API_PATHS, ...HOSTED_PAGE_PATHS] });
 */
export function mockHandlers(mock: MockApi, options: MockHandlerOptions = {}): HttpHandler[] {
  const origins = [...new Set([mock.origin, mock.verifyOrigin])];
  const paths = options.paths ?? API_PATHS;
  return origins.flatMap((origin) =>
    paths.map((path) => http.all(`${origin}${path}`, ({ request }) => mock.fetch(request))),
  );
}
