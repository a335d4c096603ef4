import { ERROR_STATUS, type ErrorCode } from './error-codes.ts';

/** One field-level failure inside a validation problem (`errors[]` in API.md §2). */
export interface FieldError {
  param: string;
  code: ErrorCode;
  detail: string;
}

export interface ApiErrorOptions {
  param?: string;
  errors?: FieldError[];
  /** Extra members merged into the problem body, e.g. `missing_steps` or `existing_id`. */
  extensions?: Record<string, unknown>;
  /** Response headers such as `retry-after` or `allow`. */
  headers?: Record<string, string>;
}

/**
 * The single error type of the API. Throw it anywhere below a route; `onError` turns it into an RFC 9457
 * problem. The status is derived from the code, so the two can never disagree.
 *
 * @example
 * throw new ApiError('resource_missing', 'No session sess_123 in this environment.');
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.param = options.param;
    this.errors = options.errors;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}
