import type { Duplex } from 'node:stream';
import { ERROR_STATUS, ERROR_TITLE, type ErrorCode } from '../../errors/error-codes.ts';
import { PROBLEM_CONTENT_TYPE, problemTypeUri } from '../../errors/problem.ts';
import { newRequestId } from '../../http/request-id.ts';

/** Node's own limit on the request line and headers together (its default, stated so it is not a surprise). */
export const MAX_HEADER_BYTES = 16 * 1024;

const REASON: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function problemFor(code: string | undefined): { code: ErrorCode; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'request_headers_too_large',
      detail: `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KB.`,
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', detail: 'The request did not arrive in time.' };
  }
  return { code: 'malformed_request', detail: 'The request is not valid HTTP/1.1.' };
}

/** The request path, if the start of the request held a readable one; only for the problem's `instance`. */
function pathOf(rawPacket: unknown): string {
  if (!(rawPacket instanceof Uint8Array)) return '/';
  const line = Buffer.from(rawPacket.subarray(0, 2048)).toString('latin1');
  const path = /^[A-Z]{3,10} (\/[\x21-\x7e]*?)(?:\?|\s|$)/.exec(line)?.[1];
  return path ?? '/';
}

/**
 * A problem document written without the app (nothing runs yet, or the request never parsed): the same
 * members as errors/problem.ts makes, and the request id to quote.
 *
 * @example
 * const { status, body, requestId } = bareProblem('https://api.example.com', 'service_unavailable', 'Not ready: starting.', '/v1/sessions');
 */
export function bareProblem(
  baseUrl: string,
  code: ErrorCode,
  detail: string,
  instance: string,
): { status: number; body: string; requestId: string } {
  const status = ERROR_STATUS[code];
  const requestId = newRequestId();
  const body = JSON.stringify({
    type: problemTypeUri(baseUrl, code),
    title: ERROR_TITLE[code],
    status,
    detail,
    instance,
    code,
    request_id: requestId,
  });
  return { status, body, requestId };
}

/**
 * The node:http `clientError` handler: a request Node could not even parse (headers over the limit, broken
 * framing, too slow) gets a short RFC 9457 problem and a closed connection, instead of Node's bare status
 * line or a reset. Nothing is written when a response has already started on the socket.
 *
 * @example
 * server.on('clientError', (error, socket) => answerClientError(error, socket, config.baseUrl));
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Duplex,
  baseUrl: string,
): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { code, detail } = problemFor(error.code);
  const { status, body, requestId } = bareProblem(baseUrl, code, detail, pathOf(error.rawPacket));
  const head = [
    `HTTP/1.1 ${status} ${REASON[status] ?? 'Bad Request'}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    `x-request-id: ${requestId}`,
    'connection: close',
  ];
  // end(), not destroy(): the client gets to read the answer before the connection closes. What it is
  // still sending is read and dropped, so closing does not turn into a reset that loses the answer.
  socket.on('data', () => {});
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 2000).unref();
}
