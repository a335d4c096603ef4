/** A problem-details body (RFC 9457) as the API sends it (API.md §2). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  param?: string;
  request_id?: string;
  user_message?: string;
  missing_steps?: string[];
  /** Several field errors at once (API.md §2). */
  errors?: { param: string; code: string; detail?: string }[];
  /** `document_type_mismatch`: what the photo looked like instead (API.md §9). */
  seen?: string;
}

/**
 * Any failed call to `/v1/verify/*`. `code` is the API's stable snake_case code; branch on it, never on
 * `message`. A request that never got an answer has `status` 0 and code `network_error`.
 *
 * @example
 *   try { await api.getSession(); } catch (e) { if (e instanceof VerifyApiError && e.code === 'token_expired') … }
 */
export class VerifyApiError extends Error {
  override readonly name = 'VerifyApiError';
  readonly status: number;
  readonly code: string;
  readonly problem: ProblemDetails;
  /** Seconds, from `retry-after` on 429/503. */
  readonly retryAfter: number | null;

  constructor(status: number, problem: ProblemDetails, retryAfter: number | null = null) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem.code ?? (status === 0 ? 'network_error' : `http_${status}`);
    this.problem = problem;
    this.retryAfter = retryAfter;
  }

  /** 401/410 about the token or session: the link is dead, a fresh `verify-url` is needed. */
  get isExpiry(): boolean {
    return this.status === 401 || this.status === 410;
  }

  /** Worth retrying as is: no answer, overload, or a server fault. */
  get isTransient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** Which screen a 401/410 leads to: a link that never worked is not an expired one. */
export function expiryReason(error: VerifyApiError): 'token_expired' | 'session_expired' | 'invalid_link' {
  if (error.code === 'session_expired') return 'session_expired';
  return error.code === 'invalid_token' || error.code === 'authentication_required'
    ? 'invalid_link'
    : 'token_expired';
}
