import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createApp } from '../../app.ts';
import type { AppDeps } from '../../app-deps.ts';
import { startBackgroundWorkers } from '../../workers/background-workers.ts';
import type { Database } from '../../store/sql-client.ts';
import type { WebhookWorkerOptions } from '../../workers/webhook-delivery-worker.ts';
import { PROBLEM_CONTENT_TYPE } from '../../errors/problem.ts';
import { waitingInAcceptQueue } from './accept-queue.ts';
import { answerClientError, bareProblem, MAX_HEADER_BYTES } from './client-error-response.ts';
import { followOpenConnections } from './open-connections.ts';

export type ServerDeps = AppDeps & { db: Database };

/** How long a stop waits, by default, for accepted requests and background rounds (`IDV_SHUTDOWN_TIMEOUT_MS`). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * How long idle keep-alive connections stay open once a stop begins. A request a client has already sent
 * on one may still be on its way to us; closing at once would reset it unanswered. Within this time it
 * is read and answered (with `connection: close`); a connection still idle after it is closed.
 */
export const KEEP_ALIVE_LINGER_MS = 500;

/**
 * The longest a stop keeps the listener open to take the connections already waiting in its accept queue
 * (see acceptWaitingConnections); at most a third of the stop's deadline. Reached only while clients keep
 * connecting after readiness failed: a load balancer takes a few seconds to notice, and what it still
 * sends meanwhile is better answered (with `connection: close`) than reset when the listener closes.
 */
export const ACCEPT_DRAIN_MAX_MS = 3000;

/** Resolves after the check phase of the next event loop turn: a poll phase has run in between. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(() => resolve())));

/**
 * How long no new connection must have arrived before the listener closes: a close in a lull, rather than
 * between two connections of a steady stream, makes a handshake crossing it (reset, see below) unlikely.
 */
const ACCEPT_QUIET_MS = 25;

/**
 * Waits until the event loop has taken no new connection for ACCEPT_QUIET_MS, checked after a poll phase,
 * or `maxMs` passed.
 *
 * The kernel completes a client's handshake and queues the connection, request bytes and all, before this
 * process accepts it; while the event loop is busy (a request's work on the embedded database), hundreds can
 * wait there. Closing the listener resets every one of them: requests already sent, never answered (the
 * cause of the resets in issue 24). libuv accepts everything waiting each time it polls the listener, but
 * a quiet count of accepts does not prove the queue empty: connections queued while the event loop was
 * busy after its last poll are in no count. So the lull is confirmed by the kernel's own count of the
 * queue where it gives one (`waitingInQueue`, accept-queue.ts), read just before the close; that leaves
 * only a connection whose handshake completes in the moment until the close (TCP gives no way to refuse
 * new handshakes while keeping the queued ones). A client connecting after the close is refused.
 */
async function acceptWaitingConnections(
  acceptedSoFar: () => number,
  waitingInQueue: () => number | null,
  maxMs: number,
): Promise<void> {
  const started = performance.now();
  let lastArrival = started;
  for (;;) {
    const before = acceptedSoFar();
    // A short timer, not a spin of immediates: the poll phase waits for connections meanwhile and takes
    // them; the timer fires right after it returns, so the close follows the last accept closely.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const now = performance.now();
    if (acceptedSoFar() !== before) lastArrival = now;
    else if (now - lastArrival >= ACCEPT_QUIET_MS) {
      // No accept since the last check is no empty queue when the event loop was busy meanwhile (a
      // request's work; a starved process): connections queued since its last poll are in no count. The
      // kernel's own count says (accept-queue.ts); the caller closes the listener synchronously after.
      if ((waitingInQueue() ?? 0) === 0) return;
      lastArrival = now;
    }
    if (now - started >= maxMs) return;
  }
}

export interface StartServerOptions {
  port: number;
  host: string;
  /** For problem documents written before the app exists; the deps' `config.baseUrl` once they do. */
  baseUrl?: string;
  /** `false`: this instance delivers no webhooks (`IDV_WEBHOOK_WORKER=off`). */
  webhookWorker?: WebhookWorkerOptions | false;
  /** `false`: no review worker (`IDV_REVIEW_WORKER=off`, or tests that drive it by hand). */
  reviewWorker?: false;
  /** The expiry and retention sweepers (`IDV_SWEEPERS`); by default as `reviewWorker`: off when it is off. */
  sweepers?: boolean;
  /** The stop deadline; after it, connections are cut and `close` reports an ungraceful stop. */
  shutdownTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The dependencies the app runs on (built by the factory, when one was given). */
  deps: ServerDeps;
  /**
   * Stops gracefully (see startServer); `graceful` is false when the deadline passed first, in which case
   * the database is left open for the process to exit over. Calling it again returns the same stop.
   */
  close(): Promise<{ graceful: boolean }>;
}

/** The port could not be bound; the message is one plain sentence for the operator. */
export class ListenError extends Error {
  override name = 'ListenError';
}

function listenFailure(error: NodeJS.ErrnoException, port: number, host: string): ListenError {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ListenError(`port ${port} on ${host} is already in use; stop the other server or set PORT`);
    case 'EACCES':
      return new ListenError(`no permission to listen on port ${port}; ports below 1024 need privileges`);
    case 'EADDRNOTAVAIL':
      return new ListenError(`${host} is not an address of this machine; check IDV_HOST`);
    default:
      return new ListenError(`cannot listen on ${host}:${port}: ${error.message}`);
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenFailure(error, port, host));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** Before the app exists: alive (`/healthz`), not ready, and every other request told to come back. */
function whileStarting(baseUrl: () => string): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end('{"status":"ok"}');
      return;
    }
    const problem = bareProblem(baseUrl(), 'service_unavailable', 'Not ready: starting.', path);
    response.writeHead(problem.status, {
      'content-type': PROBLEM_CONTENT_TYPE,
      'cache-control': 'no-store',
      'retry-after': '1',
      'x-request-id': problem.requestId,
    });
    response.end(problem.body);
  };
}

/**
 * Serves the app over node:http. Used by `npm start` and by tests that need a real socket.
 *
 * Start: the port is bound first, before anything else, so a busy port fails at once: before `deps` (a
 * factory here) open the database and migrate it, and before any background worker starts. Until the
 * app is ready, `/healthz` answers and everything else gets 503 `Not ready: starting`. Then the webhook
 * worker, the review worker and the sweepers start and `GET /readyz` turns ready.
 *
 * Stop (`close`): readiness fails at once; the connections already waiting in the listener's accept queue
 * are taken (acceptWaitingConnections), then the listener closes; every request already accepted,
 * or arriving on an open keep-alive connection in the next moment, is answered with `connection: close`,
 * and idle connections are closed after KEEP_ALIVE_LINGER_MS, so no keep-alive client holds the stop; the background loops finish their round (claims not finished lapse and are taken again
 * elsewhere); then the vision engine's threads and the database close. All within `shutdownTimeoutMs`,
 * after which the remaining connections are cut.
 *
 * @example
 * const server = await startServer(deps, { port: 8080, host: '0.0.0.0' });
 * process.once('SIGTERM', () => server.close().then(({ graceful }) => process.exit(graceful ? 0 : 1)));
 */
export async function startServer(
  depsOrFactory: ServerDeps | (() => Promise<ServerDeps>),
  options: StartServerOptions,
): Promise<RunningServer> {
  let phase: 'starting' | 'ready' | 'shutting_down' = 'starting';
  let baseUrl = () =>
    options.baseUrl ?? (typeof depsOrFactory === 'function' ? '' : depsOrFactory.config.baseUrl);
  let handle: RequestListener = whileStarting(() => baseUrl());
  // Responses not yet finished: a stop tells each of them, if it has not started, to close its connection.
  const inFlight = new Set<ServerResponse>();
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => {
    if (phase === 'shutting_down') response.setHeader('connection', 'close');
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
    void handle(request, response);
  });
  server.on('clientError', (error, socket) => answerClientError(error, socket, baseUrl()));
  const connections = followOpenConnections(server);
  await listen(server, options.port, options.host);

  const deps = await Promise.resolve(
    typeof depsOrFactory === 'function' ? depsOrFactory() : depsOrFactory,
  ).catch((error: unknown) => {
    // Not left listening behind a start that failed (a database that cannot be reached…).
    server.closeAllConnections();
    server.close();
    throw error;
  });
  baseUrl = () => deps.config.baseUrl;
  const app = createApp({
    ...deps,
    clientAddress: (request, env) => {
      try {
        return getConnInfo({ env, req: { raw: request } } as unknown as Context).remote.address ?? 'unknown';
      } catch {
        return 'unknown';
      }
    },
    hostReadiness: () => (phase === 'ready' ? null : phase),
  });
  handle = getRequestListener(app.fetch);

  // Webhook delivery, the review worker and the expiry and retention sweepers, each as configured:
  // several instances share the work (SKIP LOCKED claims and row locks keep it safe).
  const background = startBackgroundWorkers(deps, {
    webhooks: options.webhookWorker === false ? false : (options.webhookWorker ?? {}),
    review: options.reviewWorker !== false,
    sweepers: options.sweepers ?? options.reviewWorker !== false,
  });
  phase = 'ready';

  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  // An idle connection is closed only after a poll phase read whatever a client sent on it meanwhile: a
  // request read there makes the connection busy (answered, with `connection: close`), while closing a
  // socket with unread bytes would reset it. A connection that has not carried a request yet gets
  // FIRST_REQUEST_GRACE_MS for its first (open-connections.ts).
  let closingIdle = false;
  const closeIdleAfterReading = () => {
    if (closingIdle) return;
    closingIdle = true;
    void nextTurn().then(() => {
      closingIdle = false;
      connections.closeIdle(Math.min(KEEP_ALIVE_LINGER_MS, shutdownTimeoutMs / 4));
    });
  };
  async function shutdown(): Promise<{ graceful: boolean }> {
    phase = 'shutting_down';
    for (const response of inFlight) {
      if (!response.headersSent) response.setHeader('connection', 'close');
    }
    // The deadline counts from the signal, the time the accept queue takes included.
    const stopped = background.stop();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), shutdownTimeoutMs);
    });
    // Readiness fails from here on; first take what already waits in the accept queue, then stop
    // accepting. node:http's own close() would also drop every idle keep-alive connection at once,
    // resetting requests already sent on them; the net.Server close stops the listener only.
    await acceptWaitingConnections(
      () => connections.acceptedCount(),
      () => waitingInAcceptQueue(port),
      Math.min(ACCEPT_DRAIN_MAX_MS, shutdownTimeoutMs / 3),
    );
    const drained = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    // Then idle connections go, after the linger and again as more fall idle (a response begun before the
    // stop ends without `connection: close`), so no keep-alive client holds the stop until its timeout.
    let sweeper: ReturnType<typeof setInterval> | undefined;
    const linger = setTimeout(
      () => {
        closeIdleAfterReading();
        sweeper = setInterval(closeIdleAfterReading, 100);
      },
      Math.min(KEEP_ALIVE_LINGER_MS, shutdownTimeoutMs / 4),
    );
    const graceful = await Promise.race([Promise.all([drained, stopped]).then(() => true), deadline]);
    clearTimeout(timer);
    clearTimeout(linger);
    clearInterval(sweeper);
    if (!graceful) {
      server.closeAllConnections();
      return { graceful: false };
    }
    await deps.vision?.close().catch(() => {});
    await deps.db.close();
    return { graceful: true };
  }

  const { port } = server.address() as AddressInfo;
  const host = ['0.0.0.0', '127.0.0.1', '::', '::1'].includes(options.host)
    ? 'localhost'
    : options.host.includes(':')
      ? `[${options.host}]`
      : options.host;
  let stopping: Promise<{ graceful: boolean }> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    deps,
    close: () => {
      stopping ??= shutdown();
      return stopping;
    },
  };
}
