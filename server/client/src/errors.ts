import type { ApiErrorCode, IdVerifyErrorCode } from './webhook-events.ts';

/** An RFC 9457 problem as the API sends it (API.md §2). Ignore members you do not know. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  /** Stable snake_case: branch on this, never on `detail`. */
  code?: ApiErrorCode;
  /** The offending field, when one is to blame. */
  param?: string;
  /** Several validation failures at once. */
  errors?: { param?: string; code?: string; detail?: string }[];
  request_id?: string;
  [member: string]: unknown;
}

/** A retry the client did not make: the server asked for a longer wait than the policy allows. */
export interface RetrySkipped {
  /** The server's `retry-after`, in milliseconds. */
  retryAfterMs: number;
  /** The policy's cap it exceeded. */
  maxDelayMs: number;
}

/**
 * Every failed call: an answer that is not 2xx (with its problem body), or no answer at all (`status` 0,
 * `code` `network_error`, the cause attached) once the retries are spent.
 *
 * @example
 * try { await idv.sessions.get('sess_missing'); }
 * catch (error) { if (error instanceof IdVerifyError && error.code === 'resource_missing') … }
 */
export class IdVerifyError extends Error {
  readonly status: number;
  /** The API's error code, or `network_error` / `http_<status>` when there was none (see IdVerifyErrorCode). */
  readonly code: IdVerifyErrorCode;
  readonly param: string | undefined;
  readonly request_id: string | undefined;
  readonly problem: Problem | undefined;
  /** Seconds the server asked to wait (`retry-after`), when it did. */
  readonly retryAfter: number | undefined;
  /**
   * Set when the call was worth another attempt but was not retried because the server's `retry-after`
   * exceeds `retry.maxDelayMs`: wait `retryAfterMs` yourself and call again, or raise the cap.
   */
  readonly retrySkipped: RetrySkipped | undefined;

  constructor(
    message: string,
    fields: {
      status: number;
      code: IdVerifyErrorCode;
      param?: string | undefined;
      request_id?: string | undefined;
      problem?: Problem | undefined;
      retryAfter?: number | undefined;
      retrySkipped?: RetrySkipped | undefined;
      cause?: unknown;
    },
  ) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'IdVerifyError';
    this.status = fields.status;
    this.code = fields.code;
    this.param = fields.param;
    this.request_id = fields.request_id;
    this.problem = fields.problem;
    this.retryAfter = fields.retryAfter;
    this.retrySkipped = fields.retrySkipped;
  }
}

/** Builds the error for a non-2xx answer; a body that is not a problem still gives status and request id. */
export async function errorFromResponse(
  response: Response,
  retryAfter: number | undefined,
  retrySkipped?: RetrySkipped,
): Promise<IdVerifyError> {
  const text = await response.text();
  let problem: Problem | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed as Problem;
  } catch {
    // Not JSON (a proxy's error page, say): keep status and request id only.
  }
  const requestId = problem?.request_id ?? response.headers.get('x-request-id') ?? undefined;
  const code: IdVerifyErrorCode =
    typeof problem?.code === 'string' ? problem.code : `http_${response.status}`;
  const detail = problem?.detail ?? problem?.title ?? response.statusText;
  const skipped = retrySkipped
    ? ` (not retried: the server asked to wait ${retrySkipped.retryAfterMs} ms, beyond retry.maxDelayMs ${retrySkipped.maxDelayMs} ms)`
    : '';
  return new IdVerifyError(`${response.status} ${code}: ${detail}${skipped}`, {
    status: response.status,
    code,
    param: typeof problem?.param === 'string' ? problem.param : undefined,
    request_id: requestId,
    problem,
    retryAfter,
    retrySkipped,
  });
}
