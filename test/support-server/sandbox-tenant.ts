import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOCUMENT_FIXTURES_DIR } from '../fixtures/vision/documents/manifest.ts';

/**
 * What a tenant does over HTTP before anyone opens the console: register a webhook endpoint, run a
 * sandbox session through the end-user's steps with a real document photo, log a staff member in. Used by
 * the console's end-to-end test (console-e2e-plugin.ts) and the console's Lighthouse bench, both against
 * the real server (e2e-server.ts).
 */

async function json(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

function tenantCall(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': key,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/**
 * `POST /v1/webhooks` with the sandbox key, subscribed to every event. The secret is only in this answer.
 *
 * @example
 *   const { secret } = await registerWebhook(server.baseUrl, server.sandboxKey, receiver.url);
 */
export async function registerWebhook(
  baseUrl: string,
  key: string,
  url: string,
): Promise<{ webhookId: string; secret: string }> {
  const created = await json(
    await tenantCall(baseUrl, key, 'POST', '/v1/webhooks', {
      url,
      events: ['*'],
      description: 'console e2e receiver',
    }),
    'POST /v1/webhooks',
  );
  return { webhookId: String(created['webhook_id']), secret: String(created['secret']) };
}

/** `POST /v1/console/login`: the Bearer token the console keeps in sessionStorage after a login. */
export async function consoleLogin(
  baseUrl: string,
  login: { email: string; password: string },
): Promise<{ accessToken: string; expiresIn: number }> {
  const answer = await json(
    await fetch(`${baseUrl}/v1/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(login),
    }),
    'POST /v1/console/login',
  );
  return { accessToken: String(answer['access_token']), expiresIn: Number(answer['expires_in']) };
}

/** The clean specimen passport (MRZ readable, one portrait), as the end-user's photo. */
async function passportPhoto(): Promise<File> {
  const bytes = await readFile(join(DOCUMENT_FIXTURES_DIR, 'passport-astronaut.jpg'));
  return new File([bytes], 'passport.jpg', { type: 'image/jpeg' });
}

export interface SubmittedSession {
  sessionId: string;
  /** What the upload answer said about the photo: its upload id and whether the MRZ was read. */
  uploadId: string;
}

/**
 * A tier1 sandbox session taken through the end-user's steps over the verify API (consent, the passport
 * photo, read by the server's models), then submitted with the tenant's key. `outcome` is the sandbox's
 * forced decision (API.md §4 `sandbox.outcome`): the real review still runs on the evidence, then decides
 * that. Returns once submitted; see `waitForStatus` for the decision.
 *
 * @example
 *   const { sessionId } = await submitSandboxSession(baseUrl, key, { outcome: 'review_required', reference: 'u-1' });
 */
export async function submitSandboxSession(
  baseUrl: string,
  key: string,
  options: { outcome: 'approved' | 'rejected' | 'review_required'; reference: string },
): Promise<SubmittedSession> {
  const created = await json(
    await tenantCall(baseUrl, key, 'POST', '/v1/sessions', {
      country: 'NLD',
      flow: 'user',
      tier: 'tier1',
      external_user_reference: options.reference,
      sandbox: { outcome: options.outcome },
    }),
    'POST /v1/sessions',
  );
  const sessionId = String(created['session_id']);
  const token = decodeURIComponent(String(created['verify_url']).split('/verify/')[1] ?? '');
  const verify = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { 'x-verify-token': token, ...(init.headers as Record<string, string> | undefined) },
    });
  await json(await verify('/v1/verify/session'), 'GET /v1/verify/session');
  await json(
    await verify('/v1/verify/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accepted: true, consent_version: 'v1', locale: 'en' }),
    }),
    'POST /v1/verify/consent',
  );
  const form = new FormData();
  form.set('step', 'id_document');
  form.set('document_type', 'passport');
  form.set('issuing_country', 'NLD');
  form.set('side', 'front');
  form.set('image', await passportPhoto());
  const upload = await json(
    await verify('/v1/verify/documents', { method: 'POST', body: form }),
    'POST /v1/verify/documents',
  );
  const reading = upload['reading'] as { details_required?: boolean } | undefined;
  if (reading?.details_required !== false) {
    // The specimen's MRZ is machine-readable; if the server could not read it, type what it states.
    await json(
      await verify('/v1/verify/details', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          step: 'id_document',
          first_name: 'MARIA ELENA',
          last_name: 'VAN DIJK',
          date_of_birth: '1978-03-14',
          nationality: 'NLD',
          document_number: 'NXR8K4P27',
          expiry_date: '2034-06-01',
        }),
      }),
      'PUT /v1/verify/details',
    );
  }
  await json(
    await tenantCall(baseUrl, key, 'POST', `/v1/sessions/${encodeURIComponent(sessionId)}/submit`),
    'POST /v1/sessions/:id/submit',
  );
  return { sessionId, uploadId: String(upload['upload_id']) };
}

/**
 * Polls `GET /v1/sessions/:id` until the session is in `status` (the review worker decides in the
 * background), for at most `timeoutMs`. Returns the session object.
 */
export async function waitForStatus(
  baseUrl: string,
  key: string,
  sessionId: string,
  status: string,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  let last: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    last = await json(
      await tenantCall(baseUrl, key, 'GET', `/v1/sessions/${encodeURIComponent(sessionId)}`),
      'GET /v1/sessions/:id',
    );
    if (last['status'] === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `session ${sessionId} is ${String(last['status'])}, not ${status}, after ${timeoutMs / 1000} s`,
  );
}
