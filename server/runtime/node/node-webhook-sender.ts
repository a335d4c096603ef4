import { lookup as systemLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import {
  addressesProblem,
  addressProblem,
  type NetworkPolicy,
  type PolicyOptions,
  urlProblem,
} from '../../features/webhooks/url-policy.ts';
import type {
  DeliveryErrorClass,
  SendResult,
  WebhookSender,
} from '../../features/webhooks/webhook-sender.ts';
import { classifyAddressWithBlockList } from './address-block-list.ts';

/** Every address a name resolves to (both families). Injectable so tests can simulate DNS rebinding. */
export type ResolveAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

const resolveWithSystem: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    systemLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

const ADDRESS_NOT_ALLOWED = 'EWEBHOOK_ADDRESS_NOT_ALLOWED';

class AddressNotAllowedError extends Error {
  readonly code = ADDRESS_NOT_ALLOWED;
}

/**
 * A `lookup` for node:http(s) that resolves the name and refuses the connection unless the policy allows
 * every address. Because Node connects to exactly what this returns, a name that answered with a public
 * address at create time and a private one now (DNS rebinding) is caught here.
 */
function guardedLookup(resolve: ResolveAll, policy: NetworkPolicy, options: PolicyOptions): LookupFunction {
  return ((hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0)
          return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
        const problem = addressesProblem(
          hostname,
          addresses.map((entry) => entry.address),
          policy,
          options,
        );
        if (problem) return callback(new AddressNotAllowedError(problem));
        if (lookupOptions.all) return callback(null, addresses);
        const first = addresses[0] as { address: string; family: number };
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}

function errorClassOf(error: unknown): DeliveryErrorClass {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === ADDRESS_NOT_ALLOWED) return 'address_not_allowed';
  if (code === 'ETIMEDOUT' || code === 'EWEBHOOK_TIMEOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns_failure';
  if (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.includes('CERT') ||
    code === 'EPROTO' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  ) {
    return 'tls_error';
  }
  return 'network_error';
}

/**
 * The Node webhook sender: node:http(s) with no redirect following (Node never follows them), a hard
 * timeout, and the SSRF guard of the network policy (url-policy.ts) applied to the URL, to every resolved
 * address, and to the peer address of the socket actually connected, judged with `net.BlockList`.
 * `allowLoopback` (`IDV_WEBHOOK_ALLOW_LOOPBACK`) lets sandbox endpoints of a production server reach
 * loopback; nothing lets them reach private, link-local or metadata addresses.
 *
 * @example
 * const deps = await buildNodeDeps(config, { webhookSender: nodeWebhookSender({ allowLoopback: false }) });
 */
export function nodeWebhookSender(
  options: { resolve?: ResolveAll; allowLoopback?: boolean } = {},
): WebhookSender {
  const resolve = options.resolve ?? resolveWithSystem;
  const policyOptions: PolicyOptions = {
    allowLoopback: options.allowLoopback === true,
    classify: classifyAddressWithBlockList,
  };
  return {
    allowLoopback: policyOptions.allowLoopback === true,
    async resolveHost(hostname) {
      return (await resolve(hostname)).map((entry) => entry.address);
    },
    send(request) {
      const refused = urlProblem(request.url, request.policy, policyOptions);
      if (refused) return Promise.resolve({ kind: 'error', errorClass: 'address_not_allowed' });
      const url = new URL(request.url);
      const transport = url.protocol === 'https:' ? https : http;
      return new Promise<SendResult>((settle) => {
        let settled = false;
        const finish = (result: SendResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          settle(result);
        };
        const outgoing = transport.request(url, {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          lookup: guardedLookup(resolve, request.policy, policyOptions),
          // No pooled sockets: every delivery resolves, checks and connects afresh.
          agent: false,
        });
        const timer = setTimeout(() => {
          outgoing.destroy(Object.assign(new Error('webhook timeout'), { code: 'EWEBHOOK_TIMEOUT' }));
        }, request.timeoutMs);
        outgoing.on('socket', (socket: Socket) => {
          // Defence in depth: judge the peer we are actually talking to, whatever resolved it.
          socket.once('connect', () => {
            const peer = socket.remoteAddress ?? '';
            const problem = addressProblem(peer, request.policy, policyOptions);
            if (problem) outgoing.destroy(new AddressNotAllowedError(problem));
          });
        });
        outgoing.on('response', (response) => {
          const retryAfter = response.headers['retry-after'];
          finish({
            kind: 'response',
            status: response.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          });
          // The body is never read or stored (API.md §8).
          response.destroy();
        });
        outgoing.on('error', (error) => finish({ kind: 'error', errorClass: errorClassOf(error) }));
        outgoing.end(request.body);
      });
    },
  };
}
