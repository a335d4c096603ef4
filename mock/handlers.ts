import { type HttpHandler, http } from 'msw';
import type { MockApi } from './create-mock-api.ts';

/**
 * The MSW request handlers of a mock: every `/v1/*` request on the API origin (and on the hosted-page
 * origin, where the widget calls `/v1/verify/*`) goes to the same Hono app the server runs. Nothing is
 * re-implemented here, so the mock cannot drift from the server.
 *
 * @example
 * const mock = await createMockApi({ origin: 'https://api.example.com' });
 * const server = setupServer(...mockHandlers(mock));
 */
export function mockHandlers(mock: MockApi): HttpHandler[] {
  const origins = [...new Set([mock.origin, mock.verifyOrigin])];
  return origins.map((origin) => http.all(`${origin}/v1/*`, ({ request }) => mock.fetch(request)));
}
