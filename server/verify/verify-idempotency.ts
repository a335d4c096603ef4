import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import { sha256Hex } from '../crypto/primitives.ts';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem.ts';
import type { AppEnv } from '../http/app-env.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
} from '../store/idempotency.ts';
import { verifyCaller } from './verify-context.ts';
import { verifyError } from './verify-errors.ts';

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A claim older than this with no answer belongs to a process that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;
const MAX_KEY_LENGTH = 255;

/** What a request's idempotency fingerprint is made of, beyond its method and path. */
export type FingerprintSource = (c: Context<AppEnv>) => Promise<string> | string;

/** The stored answer is encrypted: a handoff answer holds a bearer link, stored nowhere else in clear. */
const answerContext = (sessionId: string, key: string) => `verify.idempotency:${sessionId}:${key}`;

/**
 * `Idempotency-Key` on the end-user POSTs (API.md §1), for the phone on a bad network that sends an
 * upload again because the answer never arrived: the first answer (errors included) is replayed for
 * 24 h instead of storing a second copy or spending a second attempt. The same key with another request
 * is 422 `idempotency_key_reused`; a retry while the first runs is 409 `idempotency_request_in_progress`.
 *
 * Keyed by the session (the verify link and its handoff links act for the same session, so a key is
 * shared between them) in the store of the tenant endpoints, with the session id as the credential.
 * Runs after the token middleware; other methods pass through untouched.
 *
 * @example
 * app.post('/v1/verify/complete', auth, verifyIdempotency(deps, () => ''), handler);
 */
export function verifyIdempotency(
  deps: AppDeps,
  fingerprintOf: FingerprintSource,
): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || c.req.method !== 'POST') return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw verifyError('invalid_parameter', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, {
        param: 'Idempotency-Key',
      });
    }
    const { session } = verifyCaller(c);
    const scope: IdempotencyScope = {
      tenantId: session.tenant_id,
      environment: session.environment,
      credentialId: session.id,
      key,
    };
    const fingerprint = await sha256Hex(`${c.req.method} ${c.req.path}\n${await fingerprintOf(c)}`);
    const now = deps.clock.now();
    const existing = await claimIdempotencyKey(
      deps.db,
      scope,
      fingerprint,
      now,
      new Date(now.getTime() - KEY_LIFETIME_MS),
      new Date(now.getTime() - ABANDONED_AFTER_MS),
    );
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw verifyError(
          'idempotency_key_reused',
          'This request was already sent with different content. Please try again.',
        );
      }
      if (existing.status === 'in_progress') {
        throw verifyError('idempotency_request_in_progress', 'Still working on it. Please wait a moment.', {
          headers: { 'retry-after': '1' },
        });
      }
      const status = existing.response_status ?? 200;
      const body =
        existing.response_body === null
          ? ''
          : await deps.cipher.decrypt(existing.response_body, answerContext(session.id, key));
      const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
      return c.body(body, status as 200, { 'content-type': contentType, 'idempotent-replayed': 'true' });
    }
    try {
      await next();
    } catch (error) {
      await releaseIdempotencyKey(deps.db, scope).catch(() => {});
      throw error;
    }
    if (c.res.status >= 500) {
      // A server fault is not an answer worth keeping: the client's retry runs again.
      await releaseIdempotencyKey(deps.db, scope);
      return;
    }
    const body = await c.res.clone().text();
    await completeIdempotencyKey(
      deps.db,
      scope,
      c.res.status,
      await deps.cipher.encrypt(body, answerContext(session.id, key)),
    );
  });
}
