/**
 * `@id-verify/mock/node`: the mock behind MSW's `setupServer`, for tenant backends' tests and Node tools.
 * Everything `fetch` (and node:http) sends to the mock's origins is answered by the real app in-process;
 * any other request goes to the network unchanged, so a webhook receiver on localhost still gets its calls.
 */
import { setupServer, type SetupServer } from 'msw/node';
import { sharpImageAnalyzer } from '../server/runtime/node/sharp-image-analyzer.ts';
import { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts';
import { mockHandlers } from './handlers.ts';

export * from './index.ts';

export interface MockServer {
  mock: MockApi;
  /** The listening MSW server; add the tenant's own handlers with `server.use(...)`. */
  server: SetupServer;
  /** Stops intercepting, stops the workers and closes the database. */
  close(): Promise<void>;
}

/**
 * Starts intercepting: `fetch(`${origin}/v1/…`)` now reaches the mock. Images are analysed with sharp
 * (as the Node server does); webhooks are sent with `fetch`, so a tenant's receiver can be a real local
 * server or one more MSW handler.
 *
 * @example
 * const { mock, close } = await startMockServer({ origin: 'https://api.example.com' });
 * const created = await fetch('https://api.example.com/v1/sessions', {
 *   method: 'POST',
 *   headers: { 'x-api-key': mock.fixtures.sandboxKey, 'content-type': 'application/json' },
 *   body: JSON.stringify({ country: 'DEU', flow: 'user', tier: 'tier2' }),
 * });
 * await close();
 */
export async function startMockServer(
  options: MockApiOptions & { onUnhandledFrame?: 'bypass' | 'warn' | 'error' } = {},
): Promise<MockServer> {
  const { onUnhandledFrame = 'bypass', ...mockOptions } = options;
  const mock = await createMockApi({
    ...mockOptions,
    deps: { images: sharpImageAnalyzer(), ...mockOptions.deps },
  });
  const server = setupServer(...mockHandlers(mock));
  server.listen({ onUnhandledFrame });
  return {
    mock,
    server,
    async close() {
      server.close();
      await mock.close();
    },
  };
}
