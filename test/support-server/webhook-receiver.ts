import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tenant's webhook endpoint as a tenant would write it from docs/API.md §8 alone: a plain node:http
 * server that keeps every delivery's raw bytes and checks the signatures with node:crypto. It imports
 * nothing of ours on purpose: a test that verified our deliveries with our own verification code would
 * pass with both sides wrong in the same way.
 */

/** One POST as it arrived: the raw body (signatures cover these exact bytes) and the headers. */
export interface ReceivedDelivery {
  body: string;
  headers: IncomingHttpHeaders;
  receivedAt: number;
}

/** What the receiver concluded about one delivery, given the endpoint's secret. */
export interface CheckedDelivery {
  event: string | null;
  sessionId: string | null;
  webhookId: string | null;
  /** `x-service-signature`: hex HMAC-SHA256 of the body keyed with the whole `whsec_…` string. */
  serviceSignatureValid: boolean;
  /** `webhook-signature`: `v1,<base64 HMAC of "id.timestamp.body">` keyed with the decoded secret. */
  standardSignatureValid: boolean;
  /** The same checks on a copy of the body with one character changed: both must fail. */
  tamperedBodyRejected: boolean;
}

/** Standard Webhooks' replay window: a timestamp further than this from now is refused. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' ? value : null;
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * API.md §8, `x-service-signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret
 * string (`whsec_…`) as UTF-8 bytes.
 *
 * @example
 *   verifyServiceSignature(secret, rawBody, req.headers['x-service-signature'])
 */
export function verifyServiceSignature(secret: string, body: string, signature: string | null): boolean {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest();
  return sameBytes(expected, Buffer.from(signature, 'hex'));
}

/**
 * API.md §8, Standard Webhooks: `webhook-signature` holds space-separated `v1,<base64>` entries (one per
 * active secret); one must be the HMAC-SHA256 of `webhook-id.webhook-timestamp.body`, keyed with the
 * base64-decoded part of the secret after `whsec_`, and the timestamp must be within the tolerance.
 *
 * @example
 *   verifyStandardSignature(secret, rawBody, req.headers, Math.floor(Date.now() / 1000))
 */
export function verifyStandardSignature(
  secret: string,
  body: string,
  headers: IncomingHttpHeaders,
  nowSeconds: number,
): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    return version === 'v1' && value !== undefined && sameBytes(expected, Buffer.from(value, 'base64'));
  });
}

/** The body with its first digit or letter changed: same length, different bytes. */
function tamper(body: string): string {
  const index = body.search(/[0-9A-Za-z]/);
  if (index < 0) return `${body} `;
  const swapped = body[index] === 'x' ? 'y' : 'x';
  return `${body.slice(0, index)}${swapped}${body.slice(index + 1)}`;
}

/**
 * Checks one delivery with the endpoint's secret (both signatures, at the time it arrived) and checks
 * that a tampered body fails both.
 */
export function checkDelivery(secret: string, delivery: ReceivedDelivery): CheckedDelivery {
  const at = Math.floor(delivery.receivedAt / 1000);
  const service = header(delivery.headers, 'x-service-signature');
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(delivery.body) as Record<string, unknown>;
  } catch {
    // Not JSON: the checks below still say whether it was signed.
  }
  const forged = tamper(delivery.body);
  return {
    event: typeof payload['event'] === 'string' ? payload['event'] : null,
    sessionId: typeof payload['session_id'] === 'string' ? payload['session_id'] : null,
    webhookId: header(delivery.headers, 'webhook-id'),
    serviceSignatureValid: verifyServiceSignature(secret, delivery.body, service),
    standardSignatureValid: verifyStandardSignature(secret, delivery.body, delivery.headers, at),
    tamperedBodyRejected:
      !verifyServiceSignature(secret, forged, service) &&
      !verifyStandardSignature(secret, forged, delivery.headers, at),
  };
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/webhooks`: what to register as the endpoint's URL. */
  url: string;
  /** Every POST received so far, retries included, in arrival order. */
  deliveries(): ReceivedDelivery[];
  close(): Promise<void>;
}

/** Bodies past this are refused (413): API.md §8 payloads are thin, a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Starts the receiver on a free loopback port. It answers 204 to every POST to `/webhooks` (so the server
 * records a success and stops retrying) and 404 to anything else.
 *
 * @example
 *   const receiver = await startWebhookReceiver();
 *   // register receiver.url, cause an event, then:
 *   receiver.deliveries().map((delivery) => checkDelivery(secret, delivery));
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/webhooks') {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413).end();
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers,
        receivedAt: Date.now(),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries: () => [...received],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
