import { gunzipSync } from 'node:zlib';

/**
 * The text of a response sent with `content-encoding: gzip`. Straight from the app the body is the gzip
 * stream; through `fetch` (the mock transport) it arrives already decoded, as a browser sees it. Either
 * way the caller asserts the header itself, and this returns what a browser would show.
 *
 * @example
 * assert.equal(response.headers.get('content-encoding'), 'gzip');
 * assert.equal(await gzipBodyText(response), 'export class Human {}');
 */
export async function gzipBodyText(response: Response): Promise<string> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return (gzipped ? gunzipSync(bytes) : Buffer.from(bytes)).toString();
}
