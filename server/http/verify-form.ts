import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
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
 * within the same request: the idempotency fingerprint, the form validator and the handler share one
 * parse, since a request body can be read once only.
 *
 * @example
 * const { startedAt } = await verifyForm(c, FRAMES_FORM_LIMITS, deps.clock);
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
 * Route middleware that reads the form (`verifyForm`: its size capped while it streams, so an oversized
 * body is refused before it is buffered) and hands it to Hono's body cache. zod-openapi's form validator,
 * which runs after the route's middleware, takes the cached FormData instead of reading the body again
 * (hono/validator reuses `c.req.bodyCache.formData`), so the documented schema checks what was read here.
 */
export function readVerifyForm(limits: MultipartLimits, clock: Clock): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { form } = await verifyForm(c, limits, clock);
    // A promise, as Hono caches bodies (its other readers chain on any entry); its type says otherwise.
    c.req.bodyCache.formData = Promise.resolve(form) as unknown as FormData;
    await next();
  });
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
