/**
 * Static files the app serves but cannot read itself (it has no file system): the docs bundle
 * `api-reference.js`, and its `.br`/`.gz` twins when the host has them (server/http/static-asset.ts).
 */
export interface StaticAssets {
  get(name: string): Promise<Response | null>;
}

/**
 * The built widget files (`npm run build` → `dist/`): `hosted/index.html`, `hosted/assets/*`,
 * `sdk/id-verify.js`, `sdk/chunks/*`, each with optional `.br`/`.gz` twins (server/http/static-asset.ts).
 * Null for a path that does not exist.
 */
export interface WidgetAssets {
  get(path: string): Promise<Response | null>;
}
