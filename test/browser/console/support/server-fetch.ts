import { executeServerCommand } from '@web/test-runner-commands';
import type { ProxiedResponse } from '../../../support-server/console-e2e-plugin.ts';

/** A request the page gives up on: the server command answers within its own 15 s limit. */
const COMMAND_TRIES = 3;

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/**
 * A `fetch` for `<idv-console>`'s `fetchImpl` that reaches the real server of the console's end-to-end
 * tests through web-test-runner (`idv-console-e2e:fetch`, test/support-server/console-e2e-plugin.ts):
 * the console then runs in the test page in any engine, and every answer is the server's own.
 *
 * @example
 *   html`<idv-console .fetchImpl=${serverFetch}></idv-console>`
 */
export async function serverFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), location.origin);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const payload = {
    path: `${url.pathname}${url.search}`,
    method: init.method ?? 'GET',
    headers,
    ...(typeof init.body === 'string' ? { body: init.body } : {}),
  };
  let lastError: unknown = null;
  for (let attempt = 0; attempt < COMMAND_TRIES; attempt += 1) {
    try {
      const answer = (await executeServerCommand<ProxiedResponse, object>(
        'idv-console-e2e:fetch',
        payload,
      )) as ProxiedResponse;
      const empty = answer.status === 204 || answer.status === 304;
      return new Response(empty ? null : bytesOf(answer.body_base64), {
        status: answer.status,
        headers: answer.headers,
      });
    } catch (error) {
      lastError = error;
      // Only a write that certainly did not reach the server may be sent again: reads only.
      if (payload.method !== 'GET') break;
    }
  }
  throw lastError;
}
