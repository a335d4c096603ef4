import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a stop waits for the first request on a connection accepted without one yet. A client's
 * handshake completes in the kernel before its program writes the request, and a busy client can take a
 * while to write it: closing such a connection as idle (as node:http's closeIdleConnections does) resets a
 * request sent a moment later. Longer than that would let a preconnected, unused socket hold every stop.
 */
export const FIRST_REQUEST_GRACE_MS = 2000;

interface OpenConnection {
  acceptedAt: number;
  /** Requests begun on it so far, and of those the ones not answered yet. */
  requests: number;
  unanswered: number;
  /** The bytes it had read when its last answer ended: more since then is a request on its way. */
  bytesReadWhenIdle: number;
  /** When its last answer ended (or it was accepted). */
  idleSince: number;
}

/** The server's open connections, for a stop that closes the idle ones and no others. */
export interface OpenConnections {
  /** How many connections the listener has accepted so far. */
  acceptedCount(): number;
  /**
   * Closes the connections that are idle: no request begun and unanswered, nothing read since the last
   * answer, idle for `minIdleMs` at least (a keep-alive client reuses a connection the moment its answer
   * arrives; one unused for a while is far less likely to carry a request that crosses our close), and
   * (for one that never carried a request) older than FIRST_REQUEST_GRACE_MS. Bytes in the kernel that
   * the event loop has not read yet are not seen here: call it after a poll phase.
   */
  closeIdle(minIdleMs: number): void;
}

/**
 * Follows the server's connections from accept to close: the idle check node:http keeps for itself
 * counts a connection idle until its first request is parsed, which is what a stop must not close.
 */
export function followOpenConnections(server: Server): OpenConnections {
  const open = new Map<Socket, OpenConnection>();
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    const now = performance.now();
    open.set(socket, { acceptedAt: now, requests: 0, unanswered: 0, bytesReadWhenIdle: 0, idleSince: now });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (request, response) => {
    const connection = open.get(request.socket);
    if (!connection) return;
    connection.requests += 1;
    connection.unanswered += 1;
    response.once('close', () => {
      connection.unanswered -= 1;
      connection.bytesReadWhenIdle = request.socket.bytesRead;
      connection.idleSince = performance.now();
    });
  });
  return {
    acceptedCount: () => accepted,
    closeIdle(minIdleMs) {
      const now = performance.now();
      for (const [socket, connection] of open) {
        if (connection.unanswered > 0 || socket.bytesRead !== connection.bytesReadWhenIdle) continue;
        if (now - connection.idleSince < minIdleMs) continue;
        if (connection.requests === 0 && now - connection.acceptedAt < FIRST_REQUEST_GRACE_MS) continue;
        socket.destroy();
      }
    },
  };
}
