import type { Context } from 'hono';
import type { Clock } from '../clock.ts';
import { sha256Hex } from '../crypto/primitives.ts';
import type { AppEnv } from './app-env.ts';
import { readMultipart } from './multipart.ts';

/** How much of a multipart body an end-user operation reads: the whole body, and each file. */
export interface MultipartLimits {
  bodyBytes: number;
  fileBytes: number;
}

/** A request's form and when its body started to arrive (a slow upload must not count against a deadline). */
export interface VerifyForm {
  form: FormData;
  startedAt: Date;
}

/**
 * The request's multipart form, read (with its limits, see `readMultipart`) on first use and then reused
 * within the same request: the idempotency fingerprint and the handler share one parse, since a request
 * body can be read once only.
 *
 * @example
 * const { form, startedAt } = await verifyForm(c, DOCUMENT_FORM_LIMITS, deps.clock);
 */
export function verifyForm(c: Context<AppEnv>, limits: MultipartLimits, clock: Clock): Promise<VerifyForm> {
  let read = c.get('verifyForm');
  if (!read) {
    const startedAt = clock.now();
    read = readMultipart(c.req.raw, limits.bodyBytes, limits.fileBytes).then((form) => ({ form, startedAt }));
    c.set('verifyForm', read);
  }
  return read;
}

/**
 * What identifies a multipart request for `Idempotency-Key`: its fields in order, files by the SHA-256 of
 * their bytes. The multipart boundary is left out on purpose: a browser that sends the same `FormData`
 * again draws a new boundary, and that retry must still match.
 *
 * @example
 * await formFingerprint(form) // 'step=id_document\nside=front\nimage=sha256:9f86…'
 */
export async function formFingerprint(form: FormData): Promise<string> {
  const lines: string[] = [];
  for (const [name, value] of form.entries()) {
    const shown =
      typeof value === 'string'
        ? JSON.stringify(value)
        : `sha256:${await sha256Hex(new Uint8Array(await value.arrayBuffer()))}`;
    lines.push(`${name}=${shown}`);
  }
  return lines.join('\n');
}
