import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './app-env.ts';
import { checkIdempotencyKey, type IdempotentCall, runIdempotently } from './idempotent-replay.ts';
import { verifyCaller } from './verify-context.ts';
import { verifyError } from '../features/verify/verify-errors.ts';

/** What a request's idempotency fingerprint is made of, beyond its method and path. */
export type FingerprintSource = (c: Context<AppEnv>) => Promise<string> | string;

/** The end-user sees these words, so they say what to do rather than what the protocol calls it. */
const failForEndUser: IdempotentCall['fail'] = (code, detail, options) =>
  verifyError(
    code,
    code === 'idempotency_key_reused'
      ? 'This request was already sent with different content. Please try again.'
      : code === 'idempotency_request_in_progress'
        ? 'Still working on it. Please wait a moment.'
        : detail,
    options,
  );

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
    checkIdempotencyKey(key, failForEndUser);
    const { session } = verifyCaller(c);
    const replayed = await runIdempotently(
      c,
      deps,
      {
        scope: {
          tenantId: session.tenant_id,
          environment: session.environment,
          credentialId: session.id,
          key,
        },
        request: `${c.req.method} ${c.req.path}\n${await fingerprintOf(c)}`,
        fail: failForEndUser,
      },
      next,
    );
    if (replayed) return replayed;
  });
}
