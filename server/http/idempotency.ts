import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import { sha256Hex } from '../crypto/primitives.ts';
import { ApiError } from '../errors/api-error.ts';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
} from '../store/idempotency.ts';
import type { AppEnv } from './app-env.ts';

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A claim older than this with no answer belongs to a process that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 60_000;
const MAX_KEY_LENGTH = 255;

/**
 * `Idempotency-Key` on POST (API.md §1): the first request's status and body (errors included) are
 * stored and replayed for 24 h; the same key with another body is 422, and a retry while the first still
 * runs is 409. Keyed by tenant + environment + credential + key.
 */
export function idempotency(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ApiError('invalid_parameter', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, {
        param: 'Idempotency-Key',
      });
    }
    const principal = c.get('principal');
    const scope: IdempotencyScope = {
      tenantId: principal.tenantId,
      environment: principal.environment,
      credentialId: principal.credentialId,
      key,
    };
    const fingerprint = await sha256Hex(
      `${c.req.method} ${c.req.path}\n${JSON.stringify(c.get('jsonBody') ?? null)}`,
    );
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
        throw new ApiError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request.',
        );
      }
      if (existing.status === 'in_progress') {
        throw new ApiError(
          'idempotency_request_in_progress',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
          { headers: { 'retry-after': '1' } },
        );
      }
      const body = existing.response_body ?? '';
      const status = existing.response_status ?? 200;
      const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
      return c.body(body, status as 200, { 'content-type': contentType, 'idempotent-replayed': 'true' });
    }
    try {
      await next();
    } catch (error) {
      await releaseIdempotencyKey(deps.db, scope).catch(() => {});
      throw error;
    }
    const response = c.res;
    if (response.status >= 500) {
      // A server fault is not an answer worth keeping: let the client's retry run again.
      await releaseIdempotencyKey(deps.db, scope);
      return;
    }
    const body = await response.clone().text();
    await completeIdempotencyKey(deps.db, scope, response.status, body);
  });
}
