import type { NetworkPolicy } from './url-policy.ts';
import { urlProblem } from './url-policy.ts';

/** What went wrong with an attempt that got no acceptable answer; shown in the delivery log. */
export type DeliveryErrorClass =
  | 'redirect'
  | 'http_error'
  | 'endpoint_gone'
  | 'timeout'
  | 'connection_refused'
  | 'dns_failure'
  | 'address_not_allowed'
  | 'tls_error'
  | 'network_error'
  | 'interrupted';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: NetworkPolicy;
}

/** The receiver's status (never its body: API.md §8), or why there was none. */
export type SendResult =
  | { kind: 'response'; status: number; retryAfter: string | null }
  | { kind: 'error'; errorClass: DeliveryErrorClass };

/**
 * Sends one signed delivery. Never throws and never follows redirects. The Node adapter
 * (server/runtime/node/node-webhook-sender.ts) also enforces the network policy against the address it actually
 * connects to; the default web `fetch` one can only check the URL (it is for the browser mock and
 * development).
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<SendResult>;
  /** The addresses a host resolves to, for the create-time check; absent where there is no DNS. */
  resolveHost?(hostname: string): Promise<string[]>;
  /**
   * Whether this sender lets sandbox endpoints of a production-mode server reach loopback (the operator's
   * `IDV_WEBHOOK_ALLOW_LOOPBACK`); the create-time check applies the same allowance.
   */
  readonly allowLoopback?: boolean;
}

function errorClassOf(error: unknown): DeliveryErrorClass {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'timeout';
  }
  const cause = (error as { cause?: { code?: string; name?: string } } | null)?.cause;
  const code = cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns_failure';
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('SSL')) return 'tls_error';
  if (cause?.name === 'ConnectTimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  return 'network_error';
}

/**
 * The default sender: web `fetch` with `redirect: 'manual'` and a timeout. Used by the browser mock (where
 * MSW answers it) and wherever no Node adapter is given.
 *
 * @example
 * const deps = { ...rest, webhookSender: fetchWebhookSender() };
 */
export function fetchWebhookSender(fetchImpl: typeof fetch = (...args) => fetch(...args)): WebhookSender {
  return {
    async send(request) {
      if (urlProblem(request.url, request.policy))
        return { kind: 'error', errorClass: 'address_not_allowed' };
      try {
        const response = await fetchImpl(request.url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(request.timeoutMs),
        });
        // The body is never read or stored; cancelling frees the connection.
        await response.body?.cancel().catch(() => {});
        // Browsers hide a manual redirect behind an opaque response with status 0.
        if (response.type === 'opaqueredirect') return { kind: 'error', errorClass: 'redirect' };
        return { kind: 'response', status: response.status, retryAfter: response.headers.get('retry-after') };
      } catch (error) {
        return { kind: 'error', errorClass: errorClassOf(error) };
      }
    },
  };
}
