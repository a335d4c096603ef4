import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createApp } from '../app.ts';
import type { AppDeps } from '../app-deps.ts';
import { createReviewWorker } from '../review/review-worker.ts';
import { createRetentionSweeper } from '../retention/retention-sweeper.ts';
import { createExpirySweeper } from '../sessions/expiry-sweeper.ts';
import type { Database } from '../store/sql-client.ts';
import { createWebhookWorker, type WebhookWorkerOptions } from '../webhooks/delivery-worker.ts';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the app over node:http. Used by `npm start` and by tests that need a real socket. Closing stops
 * accepting, lets in-flight requests finish, then closes the database.
 */
export async function startServer(
  deps: AppDeps & { db: Database },
  options: { port: number; host: string; webhookWorker?: WebhookWorkerOptions | false; reviewWorker?: false },
): Promise<RunningServer> {
  // Delivers webhooks from the outbox; several instances share the work (SKIP LOCKED claims).
  const webhooks =
    options.webhookWorker === false ? null : createWebhookWorker(deps, options.webhookWorker ?? {});
  webhooks?.start();
  const stopWebhooks = () => webhooks?.stop() ?? Promise.resolve();
  // The review worker and the expiry and retention sweepers run in every instance; claims and row locks
  // keep them safe.
  const background =
    options.reviewWorker === false
      ? []
      : [createReviewWorker(deps), createExpirySweeper(deps), createRetentionSweeper(deps)];
  for (const task of background) task.start();
  const app = createApp({
    ...deps,
    clientAddress: (request, env) => {
      try {
        return getConnInfo({ env, req: { raw: request } } as unknown as Context).remote.address ?? 'unknown';
      } catch {
        return 'unknown';
      }
    },
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
      const host = options.host === '0.0.0.0' || options.host === '127.0.0.1' ? 'localhost' : options.host;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => {
              Promise.all(background.map((task) => task.stop()))
                .then(() => stopWebhooks().then(() => deps.db.close()))
                .then(done, done);
            });
            // Keep-alive sockets would hold close() open indefinitely.
            (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
          }),
      });
    });
  });
}
