import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** Resolves once a delivery naming this session has arrived (before or after the call). */
  webhookOf(sessionId: string): Promise<void>;
  /** Deliveries of a session that had already arrived once: must stay 0 (exactly-once per endpoint). */
  duplicates(): number;
  close(): Promise<void>;
}

/**
 * The tenant's webhook endpoint on loopback: answers 200 at once and notes which session each delivery
 * names. Signatures are not checked here (the webhook tests do that); the bench only needs arrival.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrived = new Set<string>();
  const waiting = new Map<string, () => void>();
  let duplicates = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      response.writeHead(200).end();
      const sessionId = /"(sess_[A-Za-z0-9]+)"/.exec(body)?.[1];
      if (!sessionId) return;
      if (arrived.has(sessionId)) duplicates++;
      arrived.add(sessionId);
      waiting.get(sessionId)?.();
      waiting.delete(sessionId);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    webhookOf: (sessionId) =>
      arrived.has(sessionId)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.set(sessionId, resolve)),
    duplicates: () => duplicates,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
