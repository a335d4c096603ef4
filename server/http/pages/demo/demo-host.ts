import type { WidgetAssets } from '../../../static-assets.ts';

/** What the server needs of demo/tenant-backend.ts (built to demo/dist/server/tenant-backend.js). */
export interface DemoTenantBackend {
  app: { fetch(request: Request): Response | Promise<Response> };
  registerWebhook(url: string): Promise<void>;
}

export interface DemoTenantBackendModule {
  createTenantBackend(options: { apiBase: string; apiKey: string; returnUrl?: string }): DemoTenantBackend;
}

export interface DemoStartOptions {
  /** Where the backend calls the API, server to server (the address this process listens on). */
  apiBase: string;
  /** The demo page as the end-user's browser reaches it: the hosted page sends them back here. */
  pageUrl: string;
  /** The development tenant's sandbox key, or null when it is no longer known (credentials.json gone). */
  apiKey: string | null;
}

/** Why the shop backend does not answer, for its 503 and for the operator; null once it runs. */
export type DemoState = { kind: 'starting' } | { kind: 'running' } | { kind: 'unavailable'; reason: string };

/**
 * The demo shop on the development server (`AppDeps.demo`): its built page and the shop backend, which
 * can only start once the server listens and the development tenant's sandbox key is known, so it is
 * started afterwards by server/node.ts (`start`) and answers 503 until then.
 */
export interface DemoHost {
  /** The built page (`index.html`, `assets/*`) from demo/dist/. */
  assets: WidgetAssets;
  /** A request for the shop backend, its path relative to `/demo/tenant` (`/api/verifications`…). */
  tenant(request: Request): Promise<Response>;
  /** Loads the backend, registers its webhook endpoint and starts answering; never throws. */
  start(options: DemoStartOptions): Promise<DemoState>;
  state(): DemoState;
}

/**
 * @example
 * const demo = createDemoHost({ assets, loadBackend: () => import(backendFileUrl) });
 * await demo.start({ apiBase: 'http://localhost:8080', pageUrl: 'http://localhost:8080/demo/', apiKey });
 */
export function createDemoHost(options: {
  assets: WidgetAssets;
  loadBackend: () => Promise<DemoTenantBackendModule>;
}): DemoHost {
  let state: DemoState = { kind: 'starting' };
  let backend: DemoTenantBackend | null = null;

  const unavailable = (reason: string) =>
    new Response(JSON.stringify({ error: 'demo_backend_unavailable', reason }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'retry-after': '1' },
    });

  return {
    assets: options.assets,
    state: () => state,
    async tenant(request) {
      if (!backend) {
        return unavailable(state.kind === 'unavailable' ? state.reason : 'The demo shop is starting.');
      }
      return backend.app.fetch(request);
    },
    async start({ apiBase, pageUrl, apiKey }) {
      if (!apiKey) {
        state = {
          kind: 'unavailable',
          reason:
            'The demo shop needs the sandbox key of the demo tenant a development server creates on an empty database, and this database already had a tenant when it started (made by `bootstrap`, or by an earlier start whose IDV_DATA_DIR/credentials.json is gone): start on an empty database to use the demo shop.',
        };
        return state;
      }
      let module: DemoTenantBackendModule;
      try {
        module = await options.loadBackend();
      } catch {
        state = { kind: 'unavailable', reason: 'The demo is not built: run `npm run build`.' };
        return state;
      }
      try {
        const created = module.createTenantBackend({ apiBase, apiKey, returnUrl: pageUrl });
        // The endpoint is this process's own `/demo/tenant/webhooks/id-verify`, reached over loopback as
        // any development-mode webhook may (url-policy.ts, `local`); the delivery worker signs and sends it.
        await created.registerWebhook(`${apiBase}/demo/tenant/webhooks/id-verify`);
        backend = created;
        state = { kind: 'running' };
      } catch (error) {
        // The client's error names the API's problem code; never the key.
        const code = (error as { code?: unknown }).code;
        state = {
          kind: 'unavailable',
          reason: `The demo shop could not register its webhook endpoint (${typeof code === 'string' ? code : 'network error'}).`,
        };
      }
      return state;
    },
  };
}
