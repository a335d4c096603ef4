/** A problem-details body (RFC 9457) as the API sends it (API.md §2), with the extensions the console reads. */
export interface ConsoleProblem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  param?: string;
  request_id?: string;
  errors?: { param?: string; code?: string; detail?: string }[];
  /** On a 409 `invalid_state_transition`: the status the object is in now. */
  current_status?: string;
  [extension: string]: unknown;
}

/**
 * Any failed console call. `code` is the API's stable snake_case code: branch on it, never on `message`.
 * A request that got no answer has `status` 0 and code `network_error`.
 *
 * @example
 *   try { await api.get('/v1/tenant'); } catch (e) { if (e instanceof ConsoleApiError && e.status === 409) … }
 */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError';
  readonly status: number;
  readonly code: string;
  readonly problem: ConsoleProblem;

  constructor(status: number, problem: ConsoleProblem) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem.code ?? (status === 0 ? 'network_error' : `http_${status}`);
    this.problem = problem;
  }

  /** The credential is gone (expired, revoked, or never valid): the user must log in again. */
  get isUnauthenticated(): boolean {
    return this.status === 401;
  }
}
