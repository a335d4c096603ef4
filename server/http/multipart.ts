import { readBodyLimited } from './read-body.ts';
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

/**
 * The text fields of a form, checked against an allow-list: an unknown field is 400 `unknown_parameter`,
 * a file where text belongs is 400 `invalid_parameter`.
 */
export function formFields(
  form: FormData,
  allowed: { text: readonly string[]; files: readonly string[] },
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (allowed.files.includes(name)) continue;
    if (!allowed.text.includes(name)) {
      throw verifyError('unknown_parameter', `\`${name}\` is not a field of this upload.`, { param: name });
    }
    if (typeof value !== 'string') {
      throw verifyError('invalid_parameter', `\`${name}\` must be text.`, { param: name });
    }
    fields[name] = value;
  }
  return fields;
}
