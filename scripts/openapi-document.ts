import { createApp } from '../server/app.ts';
import type { AppDeps } from '../server/app-deps.ts';

/** The dependencies every host must pass; the optional ones are simply absent here. */
const REQUIRED = new Set(['db', 'clock', 'ids', 'passwords', 'cipher', 'jwtSecret']);

/**
 * The app's dependencies for serving its OpenAPI document only: the document is built from the route
 * definitions, so no database, clock or key is ever touched. Any access throws, so a route that starts
 * to need one while building the document fails loudly here instead of being silently faked.
 */
function unusedDependencies(baseUrl: string): AppDeps {
  const config = {
    baseUrl,
    verifyBaseUrl: baseUrl,
    mode: 'production',
    rateLimits: { reads: 1, writes: 1 },
    accessTokenTtlSeconds: 3600,
  };
  return new Proxy({ config } as unknown as AppDeps, {
    get(target, property) {
      if (property in target) return Reflect.get(target, property);
      if (typeof property === 'symbol' || !REQUIRED.has(property)) return undefined;
      return new Proxy(() => {}, {
        get: () => {
          throw new Error(`Building the OpenAPI document touched deps.${String(property)}`);
        },
        apply: () => {
          throw new Error(`Building the OpenAPI document called deps.${String(property)}`);
        },
      });
    },
  });
}

/**
 * The OpenAPI document exactly as the server serves it at `GET /v1/openapi.json`: the real `createApp`,
 * asked through its own route. `baseUrl` only fills `servers`.
 */
export async function buildOpenApiDocument(
  baseUrl = 'https://api.example.com',
): Promise<Record<string, unknown>> {
  const app = createApp(unusedDependencies(baseUrl));
  const response = await app.request(`${baseUrl}/v1/openapi.json`);
  if (response.status !== 200) {
    throw new Error(`GET /v1/openapi.json answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as Record<string, unknown>;
}
