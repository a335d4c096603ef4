/** Route patterns (`/v1/sessions/:id`) as regular expressions, for telling 405 from 404. */
function patternToRegExp(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * The methods registered for a path, so an unknown method on a known path answers 405 with `allow`
 * rather than a misleading 404.
 */
export function allowedMethodsFor(
  routes: readonly { method: string; path: string }[],
  path: string,
): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    if (patternToRegExp(route.path).test(path)) methods.add(route.method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
