import { errorFromResponse, IdVerifyError } from './errors.ts';
import {
  isRetryableStatus,
  mayRepeat,
  parseRetryAfter,
  type RetryPolicy,
  retryDelayMs,
} from './retry-policy.ts';

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

export interface RequestOptions {
  /** Sent as `Idempotency-Key` on a POST or PUT; one is generated when you pass none. */
  idempotencyKey?: string;
  /** Cancels the call, retries included. */
  signal?: AbortSignal;
}

export interface TransportRequest extends RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Whether the operation takes an `Idempotency-Key` (the tenant POSTs and the watchlist PUT). */
  idempotent?: boolean;
}

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  fetch: typeof fetch;
  retry: RetryPolicy;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
}

function urlOf(baseUrl: string, path: string, query: Record<string, QueryValue> | undefined): string {
  const url = new URL(`${baseUrl}${path}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.toString();
}

/** Did the caller cancel (as opposed to a timeout or a lost connection, which are worth a retry)? */
function cancelledByCaller(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * One API call with the retry rules of retry-policy.ts. Answers the raw 2xx response; any other outcome
 * throws {@link IdVerifyError}.
 */
export async function send(config: TransportConfig, request: TransportRequest): Promise<Response> {
  const headers: Record<string, string> = {
    'x-api-key': config.apiKey,
    accept: 'application/json',
    'user-agent': 'id-verify-node/0.1.0',
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  // One key for every attempt: that is what makes the retries of a POST safe.
  const idempotencyKey = request.idempotent ? (request.idempotencyKey ?? crypto.randomUUID()) : undefined;
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const url = urlOf(config.baseUrl, request.path, request.query);
  const repeatable = mayRepeat(request.method, idempotencyKey !== undefined);

  for (let attempt = 0; ; attempt++) {
    request.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await config.fetch(url, { method: request.method, headers, body, signal });
    } catch (cause) {
      if (cancelledByCaller(request.signal)) throw cause;
      const wait =
        repeatable && attempt < config.retry.maxRetries
          ? retryDelayMs(config.retry, attempt + 1, undefined)
          : undefined;
      if (wait === undefined) {
        throw new IdVerifyError(`${request.method} ${request.path} got no answer: ${String(cause)}`, {
          status: 0,
          code: 'network_error',
          cause,
        });
      }
      await config.sleep(wait);
      continue;
    }
    if (response.ok) return response;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const retryDue = repeatable && isRetryableStatus(response.status) && attempt < config.retry.maxRetries;
    const wait = retryDue ? retryDelayMs(config.retry, attempt + 1, retryAfter) : undefined;
    if (wait === undefined) {
      // A due retry is skipped only when the server's wait exceeds the cap: say so rather than fail silently.
      const retrySkipped =
        retryDue && retryAfter !== undefined
          ? { retryAfterMs: retryAfter * 1000, maxDelayMs: config.retry.maxDelayMs }
          : undefined;
      throw await errorFromResponse(response, retryAfter, retrySkipped);
    }
    // Drain the body so the connection can be reused.
    await response.body?.cancel();
    await config.sleep(wait);
  }
}

/** {@link send}, then the JSON body. */
export async function sendJson<T>(config: TransportConfig, request: TransportRequest): Promise<T> {
  const response = await send(config, request);
  return (await response.json()) as T;
}
