import type { ReasonCode } from '../server/domain/review/reasons.ts';
import { ApiError } from '../server/errors/api-error.ts';
import type { ErrorCode } from '../server/errors/error-codes.ts';
import { problemResponse } from '../server/errors/problem.ts';
import { newRequestId } from '../server/http/request-id.ts';

/** An outcome the automated review can be forced to in the sandbox (API.md §4, `sandbox.outcome`). */
export type ForcedOutcome = 'approved' | 'rejected' | 'review_required';

/** Which requests a scenario applies to: a path prefix (`/v1/verify/`) or a pattern; all `/v1` when absent. */
export type RequestMatcher = string | RegExp;

/** The statuses `failNext` can answer with; each has a stable problem `code` (API.md §2). */
export type FailureStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503;

/** The `code` a failure carries when the caller names only a status. */
export const DEFAULT_FAILURE_CODE: Record<FailureStatus, ErrorCode> = {
  400: 'invalid_parameter',
  401: 'authentication_required',
  403: 'insufficient_capability',
  404: 'resource_missing',
  409: 'invalid_state_transition',
  410: 'session_expired',
  413: 'payload_too_large',
  422: 'unprocessable_image',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

export interface FailNextOptions {
  /** Only requests whose path matches count towards (and receive) the failure. */
  path?: RequestMatcher;
  /** The problem `code`; its status must be `status`. Defaults to {@link DEFAULT_FAILURE_CODE}. */
  code?: ErrorCode;
  /** `retry-after` seconds on 429/503 (default 1). */
  retryAfterSeconds?: number;
}

export interface ForceOutcomeOptions {
  /** Reason codes for a rejection or review (e.g. `['document_expired']`). */
  reasonCodes?: ReasonCode[];
  /** Time the review waits before deciding, to show the "processing" screen (ms). */
  processingDelayMs?: number;
}

/** What is set right now; `scenarios.state` in the console shows it. */
export interface ScenarioState {
  forcedOutcome: { outcome: ForcedOutcome; reasonCodes: ReasonCode[]; processingDelayMs?: number } | null;
  latency: { ms: number; path: RequestMatcher | null } | null;
  failures: {
    remaining: number;
    status: FailureStatus;
    code: ErrorCode;
    path: RequestMatcher | null;
    retryAfterSeconds: number;
  }[];
}

/**
 * Switches for frontend work against the mock: force the review's outcome, slow the API down, make it
 * fail, expire a session. Usable from tests (`mock.scenarios.failNext(1, 503)`) and from the browser
 * console (`idvMock.scenarios.failNext(1, 503)`). Every switch applies to `/v1/*` requests reaching the
 * mock; none touches the real API.
 */
export interface MockScenarios {
  /**
   * Sessions created with sandbox credentials while this is set get `sandbox.outcome` (an explicit
   * `sandbox` in the create body wins), so the automated review decides that way through the real
   * engine and fires the real events. `null` turns it off. For an existing session use
   * `POST /v1/sandbox/sessions/:id/simulate`.
   */
  forceOutcome(outcome: ForcedOutcome | null, options?: ForceOutcomeOptions): void;
  /** Adds `ms` of latency before every matching request is answered; `0` turns it off. */
  setLatency(ms: number, options?: { path?: RequestMatcher }): void;
  /**
   * The next `count` matching requests answer `status` with an RFC 9457 body (and `retry-after` for
   * 429/503) without reaching the app, so nothing changes server-side. Calls queue up in order.
   */
  failNext(count: number, status: FailureStatus, options?: FailNextOptions): void;
  /** Expires a `created`/`collecting` session now (the `session.expired` event fires); returns its id. */
  expireSession(
    sessionId: string,
    scope?: { tenantId?: string; environment?: 'sandbox' | 'production' },
  ): Promise<string>;
  /** Turns every switch off. */
  reset(): void;
  readonly state: Readonly<ScenarioState>;
}

function matches(path: string, matcher: RequestMatcher | null): boolean {
  if (matcher === null) return true;
  return typeof matcher === 'string' ? path.startsWith(matcher) : matcher.test(path);
}

/** The mutable state behind {@link MockScenarios} plus what the request pipeline asks of it. */
export interface ScenarioEngine {
  state: ScenarioState;
  /** Applies latency and failures; returns the failure response, or null to go on to the app. */
  intercept(request: Request, baseUrl: string): Promise<Response | null>;
  /** Rewrites a session-create body to carry the forced outcome; other requests come back unchanged. */
  rewrite(request: Request): Promise<Request>;
}

const SANDBOX_KEY_PREFIX = 'sk_sandbox_';

function isSandboxCredential(request: Request): boolean {
  const key = request.headers.get('x-api-key');
  if (key !== null) return key.startsWith(SANDBOX_KEY_PREFIX);
  return request.headers.get('authorization') !== null && request.headers.get('x-environment') === 'sandbox';
}

export function createScenarioEngine(): ScenarioEngine {
  const state: ScenarioState = { forcedOutcome: null, latency: null, failures: [] };
  return {
    state,
    async intercept(request, baseUrl) {
      const path = new URL(request.url).pathname;
      // A CORS preflight is the browser's, not the app's: failing it would fail the request after it.
      if (request.method === 'OPTIONS') return null;
      if (state.latency && matches(path, state.latency.path)) {
        const ms = state.latency.ms;
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
      const failure = state.failures.find((candidate) => matches(path, candidate.path));
      if (!failure) return null;
      failure.remaining -= 1;
      if (failure.remaining <= 0) state.failures.splice(state.failures.indexOf(failure), 1);
      const headers: Record<string, string> =
        failure.status === 429 || failure.status === 503
          ? { 'retry-after': String(failure.retryAfterSeconds) }
          : {};
      const error = new ApiError(
        failure.code,
        `Simulated failure (mock scenario failNext ${failure.status}).`,
        {
          headers,
        },
      );
      const requestId = request.headers.get('x-request-id') ?? newRequestId();
      const response = problemResponse(error, { baseUrl, instance: path, requestId });
      response.headers.set('x-request-id', requestId);
      return response;
    },
    async rewrite(request) {
      const forced = state.forcedOutcome;
      if (!forced || request.method !== 'POST' || new URL(request.url).pathname !== '/v1/sessions')
        return request;
      if (!isSandboxCredential(request)) return request;
      let body: unknown;
      try {
        body = await request.clone().json();
      } catch {
        return request; // Not JSON: let the app answer invalid_json as it would.
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body) || 'sandbox' in body)
        return request;
      const sandbox: Record<string, unknown> = { outcome: forced.outcome };
      if (forced.reasonCodes.length > 0) sandbox['reason_codes'] = forced.reasonCodes;
      if (forced.processingDelayMs !== undefined) sandbox['processing_delay_ms'] = forced.processingDelayMs;
      const headers = new Headers(request.headers);
      headers.delete('content-length');
      return new Request(request.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...body, sandbox }),
      });
    },
  };
}

export function failureCodeFor(status: FailureStatus, code: ErrorCode | undefined): ErrorCode {
  return code ?? DEFAULT_FAILURE_CODE[status];
}
