import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port around a web-standard fetch handler (an app, a tenant backend). */
export async function listen(
  fetchHandler: (request: Request) => Response | Promise<Response>,
): Promise<Listening> {
  const server: Server = createServer(getRequestListener(fetchHandler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
