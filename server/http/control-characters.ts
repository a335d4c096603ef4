import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { ApiError } from '../errors/api-error.ts';
import type { AppEnv } from './app-env.ts';

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

/**
 * Whether `text` holds a C0 control or DEL: meaningless in an id, a cursor, a filter or any URL value.
 *
 * @example
 * hasControlCharacter('sess_\u0000') // true
 */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (isControl(text.charCodeAt(index))) return true;
  return false;
}

/** Shown instead of the offending characters, so a problem document never echoes them. */
function printable(text: string): string {
  return hasControlCharacter(text)
    ? Array.from(text, (char) => (isControl(char.charCodeAt(0)) ? '\uFFFD' : char)).join('')
    : text;
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a broken escape is the router's business (it simply will not match)
  }
}

/** The name a route pattern gives the segment at `index` (`:id`, `:id{regex}`), if it is a parameter. */
function paramNameAt(patterns: readonly string[], index: number): string | null {
  for (const pattern of patterns) {
    const segment = pattern.split('/')[index];
    const name = segment?.startsWith(':') ? /^:([^{?]+)/.exec(segment)?.[1] : undefined;
    if (name) return name;
  }
  return null;
}

/**
 * Refuses a control character (NUL, the other C0 controls, DEL) in the URL before any route runs: in a
 * path segment (a resource id, a verify token) or in a query name or value (list cursors, filters). They
 * have no meaning there, and PostgreSQL cannot even hold NUL in text, so without this check `GET
 * /v1/sessions/%00` would fail inside the store as a 500. The answer is 400 `invalid_parameter` naming
 * the parameter, without repeating the characters in `detail`. JSON bodies are checked by `jsonBody`.
 *
 * @example
 * app.use('*', rejectControlCharacters);
 * // GET /v1/sessions/sess_%00 → 400 {"code":"invalid_parameter","param":"id",…}
 */
export const rejectControlCharacters = createMiddleware<AppEnv>(async (c, next) => {
  // A URL reaches us with every control character percent-encoded (the HTTP parser refuses raw ones and the
  // URL parser encodes them), so a URL without `%` needs no closer look.
  if (!c.req.url.includes('%')) return next();
  const url = new URL(c.req.url);
  const segments = url.pathname.split('/');
  for (const [index, segment] of segments.entries()) {
    if (!segment.includes('%') && !hasControlCharacter(segment)) continue;
    if (!hasControlCharacter(decodedSegment(segment))) continue;
    const param =
      paramNameAt(
        matchedRoutes(c).map((route) => route.path),
        index,
      ) ?? 'path';
    throw new ApiError('invalid_parameter', `\`${param}\` must not contain control characters.`, {
      param,
    });
  }
  for (const [name, value] of url.searchParams) {
    if (hasControlCharacter(name) || hasControlCharacter(value)) {
      const param = printable(name);
      throw new ApiError('invalid_parameter', `\`${param}\` must not contain control characters.`, {
        param,
      });
    }
  }
  await next();
});

/**
 * The first string in a parsed JSON value (member names included) that holds NUL, as a dotted path
 * (`metadata.note`, `items.0`), or null. NUL is the one character PostgreSQL refuses in `text` and
 * `jsonb`; other controls (a newline in a note) can be meaningful in free text and are left alone.
 *
 * @example
 * nulPathOf({ email: 'a\u0000@b.test' }) // 'email'
 */
export function nulPathOf(value: unknown, path: readonly string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, member] of Object.entries(value)) {
    const at = [...path, printable(key)];
    if (key.includes('\u0000')) return at.join('.');
    const found = nulPathOf(member, at);
    if (found !== null) return found;
  }
  return null;
}
