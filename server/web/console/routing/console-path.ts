/**
 * Console URLs, apart from the route table: screens link with these, and the route table (routes.ts)
 * loads the screens, so the screens importing it would close an import circle.
 */

/** Every path of the console lives under this prefix; the server answers all of them with index.html. */
export const BASE = '/console';

/** Builds a console href from segments and an optional query; values are encoded. */
export function consolePath(segments: readonly string[], query?: Record<string, string | undefined>): string {
  const path = `${BASE}/${segments.map(encodeURIComponent).join('/')}`;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
