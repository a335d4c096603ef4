import type { ApiError } from './api-error.ts';
import { ERROR_TITLE } from './error-codes.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Where a problem type is documented; served by the docs route so every `type` resolves. */
export function problemTypeUri(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/problems/${code}`;
}

/**
 * Renders an ApiError as an RFC 9457 problem details response.
 * `instance` is the request path, so a support engineer can pair it with `request_id`.
 */
export function problemResponse(
  error: ApiError,
  context: { baseUrl: string; instance: string; requestId: string },
): Response {
  const body: Record<string, unknown> = {
    type: problemTypeUri(context.baseUrl, error.code),
    title: ERROR_TITLE[error.code],
    status: error.status,
    detail: error.message,
    instance: context.instance,
    code: error.code,
    request_id: context.requestId,
    ...error.extensions,
  };
  if (error.param !== undefined) body['param'] = error.param;
  if (error.errors !== undefined) body['errors'] = error.errors;
  const headers = new Headers(error.headers);
  headers.set('content-type', PROBLEM_CONTENT_TYPE);
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
