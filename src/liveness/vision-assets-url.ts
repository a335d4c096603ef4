/**
 * The Human release whose browser bundle and models the server serves under `/sdk/vision/` (from its
 * own `node_modules`, server/runtime/node/node-vision-assets.ts). Part of every URL, so those files are cached
 * for a year; a test checks it against the installed package.
 */
export const HUMAN_VERSION = '3.3.6';

/**
 * Where the liveness step's face model lives: beside the script-tag bundle on the server that answers
 * the verify API (never a CDN). Null for a base that is not an http(s) URL.
 *
 * @example
 *   visionAssetsUrl('https://verify.example.com') // → 'https://verify.example.com/sdk/vision/human-3.3.6/'
 */
export function visionAssetsUrl(apiBase: string): string | null {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/sdk/vision/human-${HUMAN_VERSION}/`;
}
