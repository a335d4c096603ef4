import { readFileSync } from 'node:fs';

/** The kernel's TCP socket tables (Linux): one line per socket, IPv4 and IPv6. */
const SOCKET_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];
/** The state column's value for a listening socket (TCP_LISTEN). */
const LISTENING = '0A';

/**
 * How many connections wait in the kernel's accept queue of the listener on `port`: handshakes completed
 * and queued, not yet taken by this process. Null where the system does not say (only Linux's socket
 * tables do), so that a caller falls back to what it can see.
 *
 * Why: a server that closes its listener resets every connection still queued there, with its request.
 * Counting the connections the event loop has accepted cannot tell an empty queue from one filled since
 * the last poll (while the loop was busy); the kernel can. For a listening socket the tables' `rx_queue`
 * is that queue's length.
 *
 * @example
 * waitingInAcceptQueue(8080) // 0 once the event loop has taken every connection; null on macOS
 */
export function waitingInAcceptQueue(port: number): number | null {
  let waiting: number | null = null;
  for (const table of SOCKET_TABLES) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    waiting ??= 0;
    for (const line of text.split('\n').slice(1)) {
      // `sl local_address rem_address st tx_queue:rx_queue …`, addresses as hex `address:port`.
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (state !== LISTENING || !local || !queues) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) !== port) continue;
      const queued = Number.parseInt(queues.slice(queues.indexOf(':') + 1), 16);
      if (Number.isFinite(queued)) waiting += queued;
    }
  }
  return waiting;
}
