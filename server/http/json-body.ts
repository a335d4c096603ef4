import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../errors/api-error.ts';
import type { AppEnv } from './app-env.ts';
import { nulPathOf } from './control-characters.ts';
import { readBodyLimited } from './read-body.ts';

/** JSON bodies are at most 64 KB (API.md §4). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Non-fatal and used without `stream`, so one instance serves every request (building one costs more). */
const bodyDecoder = new TextDecoder('utf-8', { fatal: false });

async function readLimited(request: Request, limit: number): Promise<string> {
  return bodyDecoder.decode(await readBodyLimited(request, limit, () => tooLarge(limit)));
}

/**
 * No operation takes a body nested deeper than a few levels; far deeper ones (5,000 levels fit in 64 KB)
 * overflow the stack of every recursive walker after the parse (JSON.stringify for the idempotency
 * fingerprint, the NUL check, validation), which answered 500.
 */
export const JSON_MAX_DEPTH = 32;

/** The deepest nesting of objects and arrays in `text`, which is valid JSON; counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth -= 1;
  }
  return deepest;
}

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body exceeds ${limit / 1024} KB.`);
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]?.trim().toLowerCase();
  return (
    mediaType === 'application/json' ||
    (mediaType?.startsWith('application/') && mediaType.endsWith('+json')) === true
  );
}

/**
 * Reads and parses a JSON body before validation, turning every malformed request into its documented
 * problem: 413 for size, 415 for content type, 400 `invalid_json` for syntax. An empty body is `{}` only
 * when the operation allows it (`optional`).
 */
export function jsonBody(options: { optional?: boolean } = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await readJsonBody(c, options);
    await next();
  });
}

/** What `jsonBody` does, for a chain that runs it inline (route-kit.ts). */
export async function readJsonBody(c: Context<AppEnv>, options: { optional?: boolean } = {}): Promise<void> {
  const text = await readLimited(c.req.raw, JSON_BODY_LIMIT);
  if (text.trim() === '') {
    if (!options.optional)
      throw new ApiError('invalid_json', 'The request body is empty; send a JSON object.');
    c.set('jsonBody', {});
    c.req.bodyCache.json = Promise.resolve({});
    // The stream is consumed: say that it was empty, or a later body check (zod-openapi's media-type
    // gate) would rebuild bytes from the cached `{}` and see a body without a content type.
    c.req.bodyCache.arrayBuffer = Promise.resolve(new ArrayBuffer(0)) as unknown as ArrayBuffer; // Hono caches promises; its type says otherwise
    return;
  }
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw new ApiError(
      'unsupported_media_type',
      'Send the body as JSON with `Content-Type: application/json`.',
      {
        headers: { accept: 'application/json' },
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApiError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_json', 'The request body must be a JSON object.');
  }
  if (nestingDepth(text) > JSON_MAX_DEPTH) {
    throw new ApiError('invalid_json', `The request body is nested deeper than ${JSON_MAX_DEPTH} levels.`);
  }
  // PostgreSQL refuses NUL in text and jsonb: caught here, for every operation, as the caller's mistake.
  const withNul = text.includes('\\u0000') ? nulPathOf(parsed) : null;
  if (withNul !== null) {
    throw new ApiError('invalid_parameter', `\`${withNul}\` must not contain the NUL character.`, {
      param: withNul,
    });
  }
  c.set('jsonBody', parsed);
  // The stream is consumed; hand the body to Hono's cache so the zod validator reads it. Its `json()`
  // reads the cached text: without that entry it would rebuild one from the parsed value through a
  // stringify and a full web Response (issue #13 profile).
  c.req.bodyCache.json = Promise.resolve(parsed);
  c.req.bodyCache.text = Promise.resolve(text) as unknown as string; // a promise, as Hono caches it
}
