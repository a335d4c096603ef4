import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { AppEnv } from './app-env.ts';
import { readBodyLimited } from './read-body.ts';
import { validationHook } from './validation-hook.ts';
import { verifyError } from '../features/verify/verify-errors.ts';

/** API.md §10: at most 10 MB per image, documents and liveness frames alike. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Room for the text fields and part headers around the files of a multipart body. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

function isMultipart(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'multipart/form-data';
}

function tooLarge(limit: number) {
  return verifyError(
    'payload_too_large',
    `This file is too large. Photos may be at most ${Math.floor(limit / (1024 * 1024))} MB.`,
  );
}

/**
 * Reads a `multipart/form-data` body of at most `limit` bytes (read-body.ts: a lying or missing
 * `content-length` cannot make the server buffer more); 415 for another content type, 400 for a
 * malformed body.
 */
export async function readMultipart(request: Request, limit: number, fileLimit: number): Promise<FormData> {
  const contentType = request.headers.get('content-type') ?? undefined;
  if (!isMultipart(contentType)) {
    throw verifyError('unsupported_media_type', 'Send the photo as multipart/form-data.', {
      headers: { accept: 'multipart/form-data' },
    });
  }
  const body = await readBodyLimited(request, limit, () => tooLarge(fileLimit), 'release');
  try {
    return await new Response(body, { headers: { 'content-type': contentType as string } }).formData();
  } catch {
    throw verifyError('invalid_parameter', 'The upload was incomplete. Please try again.');
  }
}

/** A text field of a form: left empty, as a browser's FormData sends an unfilled input, it is missing. */
export function formText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

/**
 * A file part, shown as a binary string in the document. A File, not `z.string()`: the form validator
 * hands zod the parts as FormData has them.
 */
export function formFile(error: string) {
  return z.instanceof(File, { error }).openapi({ type: 'string', format: 'binary' });
}

/** Whether a form sent something for a field: a field left empty is missing (see `formText`). */
function isSent(value: unknown): boolean {
  return value !== undefined && value !== '';
}

/**
 * The form's first problem, in the order the end-user's client fixes them: a field the form does not
 * have, then a text field sent as a file or more than once, then the first rule broken (schema order).
 * `files` names the parts that hold exactly one file.
 */
function firstProblem(issues: readonly z.core.$ZodIssue[], form: Record<string, unknown>, files: string[]) {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown) {
    const name = unknown.keys[0] ?? '';
    return verifyError('unknown_parameter', `\`${name}\` is not a field of this upload.`, { param: name });
  }
  const nameOf = (issue: z.core.$ZodIssue) => String(issue.path[0] ?? '');
  const notText = issues.find((issue) => {
    const value = form[nameOf(issue)];
    return (
      issue.path.length === 1 && !files.includes(nameOf(issue)) && isSent(value) && typeof value !== 'string'
    );
  });
  if (notText) {
    const param = nameOf(notText);
    const detail = Array.isArray(form[param])
      ? `\`${param}\` must be sent once.`
      : `\`${param}\` must be text.`;
    return verifyError('invalid_parameter', detail, { param });
  }
  const issue = issues[0]!;
  // An entry of a list part (a `frames` part) is named by its list.
  const param = nameOf(issue);
  // A single-file part that is not exactly one file (left out, text, sent twice) is missing its file.
  if (files.includes(param)) return verifyError('missing_parameter', issue.message, { param });
  // A field that is not there is missing, whatever rule noticed it (a cross-field rule too).
  if (issue.path.length === 1 && !isSent(form[param])) {
    return verifyError('missing_parameter', `\`${param}\` is required.`, { param });
  }
  return verifyError('invalid_parameter', issue.message, { param });
}

/**
 * The validation hook of the multipart uploads: the form's first problem answers 400 in the end-user's
 * words (`user_message`), one field at a time as the hosted page shows it, rather than the API's list of
 * field errors (validation-hook.ts). `files` names the parts that hold exactly one file. Other targets
 * (the `Idempotency-Key` header) go to the app's hook.
 *
 * @example
 * app.openapi(route, handler, multipartHook(['image']));
 */
export function multipartHook(files: string[] = []) {
  return (
    result: { target: string } & ({ success: true } | { success: false; error: z.ZodError }),
    c: Context<AppEnv>,
  ): undefined => {
    if (result.success) return undefined;
    if (result.target !== 'form') {
      validationHook(result as Parameters<typeof validationHook>[0], c);
      return undefined;
    }
    // @hono/zod-validator hands the hook the value it validated, the form's parts by name (a part sent
    // more than once as a list), on failure too.
    const form = (result as { data?: Record<string, unknown> }).data ?? {};
    throw firstProblem(result.error.issues, form, files);
  };
}
