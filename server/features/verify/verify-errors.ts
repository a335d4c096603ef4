import { ApiError, type ApiErrorOptions } from '../../errors/api-error.ts';
import type { ErrorCode } from '../../errors/error-codes.ts';

/**
 * An error for the end-user endpoints. Their answers reach a browser, so `detail` is written for the
 * person verifying (no internal reason, no personal value) and repeated as `user_message`, which the
 * hosted page and the widget may show as is.
 *
 * @example
 * throw verifyError('unprocessable_image', 'We could not read this photo. Please take it again.');
 */
export function verifyError(code: ErrorCode, userMessage: string, options: ApiErrorOptions = {}): ApiError {
  return new ApiError(code, userMessage, {
    ...options,
    extensions: { ...options.extensions, user_message: userMessage },
  });
}
