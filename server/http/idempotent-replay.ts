import type { Context } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import { sha256Hex } from '../crypto/primitives.ts';
import { ApiError, type ApiErrorOptions } from '../errors/api-error.ts';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
  renewIdempotencyLease,
  type StoredAnswer,
} from '../store/idempotency.ts';
import type { SqlClient } from '../store/sql-client.ts';
import type { AppEnv } from './app-env.ts';
import {
  beginClaim,
  DEFAULT_IDEMPOTENCY_LEASE_MS,
  liveIdempotencyClaims,
  PROCESS_OWNER_ID,
} from './idempotency-lease.ts';

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * A claim without a lease (written before leases existed) older than this belongs to a process that
 * died; a retry may take it over. Claims with a lease lapse when it runs out (see idempotency-lease.ts).
 */
const ABANDONED_AFTER_MS = 60_000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

type ReplayFailure = 'idempotency_key_reused' | 'idempotency_request_in_progress' | 'invalid_parameter';

export interface IdempotentCall {
  /** Who the key belongs to: tenant, environment, credential (or session) and the key itself. */
  scope: IdempotencyScope;
  /** What makes two requests "the same": method, path and a canonical form of the body. */
  request: string;
  /** Builds the errors: tenant endpoints answer with ApiError, end-user ones add a `user_message`. */
  fail: (code: ReplayFailure, detail: string, options?: ApiErrorOptions) => Error;
}

/**
 * Lets a route store its answer in the same statement or transaction as its effect (set on the context
 * as `idempotentAnswer` while a claim runs). Without it the answer is stored after the handler returns,
 * and a crash between the two leaves an effect without its answer: the retry then runs again, creating a
 * second session or finding the session already submitted. Every route whose effect must not run twice
 * seals its answer (answerInTransaction, commitWithAnswer): session create, submit, cancel, link refresh,
 * review, re-verification create, API key and webhook create, secret rotation and delivery retry, and
 * the end-user consent, handoff, liveness challenge and answer, document upload and complete. The
 * others set a state and may run again (PUT and PATCH), or send a webhook test whose outcome is the
 * answer.
 */
export interface IdempotentAnswer {
  /** Encrypts `value`, the JSON the route is about to answer with `status`, for the route to store. */
  seal(status: number, value: unknown): Promise<StoredAnswer>;
}

/**
 * Stores `value`, the JSON a route is about to answer with `status`, inside `tx`, the transaction of its
 * effect, when an Idempotency-Key claim runs (see IdempotentAnswer); does nothing otherwise.
 */
export async function answerInTransaction(
  c: Context<AppEnv>,
  tx: SqlClient,
  status: number,
  value: unknown,
): Promise<void> {
  const sealed = await c.get('idempotentAnswer')?.seal(status, value);
  if (sealed) await completeIdempotencyKey(tx, sealed);
}

/**
 * Runs a route's `effect` and builds its `answer` from the result (reading through the `sql` given, never
 * the database beside it: the embedded one would wait for the open transaction); when an Idempotency-Key claim runs, both
 * happen in one transaction that also stores the answer, so a crash can never leave the effect without the
 * answer a retry must get replayed. Without a key the effect runs as is (no transaction added to its cost).
 *
 * @example
 * const body = await commitWithAnswer(c, deps.db, 201, (tx) => insertApiKey(tx, row), (key) => toApiKeyObject(key));
 * return c.json(body, 201);
 */
export async function commitWithAnswer<T, A>(
  c: Context<AppEnv>,
  db: SqlClient,
  status: number,
  effect: (sql: SqlClient) => Promise<T>,
  answer: (result: T, sql: SqlClient) => A | Promise<A>,
): Promise<A> {
  if (!c.get('idempotentAnswer')) return answer(await effect(db), db);
  return db.transaction(async (tx) => {
    const value = await answer(await effect(tx), tx);
    await answerInTransaction(c, tx, status, value);
    return value;
  });
}

/** The stored answer is personal data (a session with its verify_url, a handoff link): encrypted. */
const answerContext = (scope: IdempotencyScope) =>
  `idempotency:${scope.tenantId}:${scope.environment}:${scope.credentialId}:${scope.key}`;

export const tenantReplayFailure: IdempotentCall['fail'] = (code, detail, options) =>
  new ApiError(code, detail, options);

/** Refuses an empty or overlong key before anything is claimed. */
export function checkIdempotencyKey(key: string, fail: IdempotentCall['fail']): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw fail(
      'invalid_parameter',
      `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      {
        param: 'Idempotency-Key',
      },
    );
  }
}

/**
 * Runs `next` at most once per key (API.md §1): the first answer (errors included) is stored and replayed
 * for 24 h; the same key with another request is 422 `idempotency_key_reused`; a retry while the first
 * still runs is 409 `idempotency_request_in_progress`. A 5xx or a thrown error releases the key, so the
 * client's retry runs again. The running attempt holds a lease it renews (`config.idempotencyLeaseMs`,
 * default 10 s); when its process dies the lease lapses and a retry takes the key over (API.md §11).
 * Returns the replayed response, or undefined when `next` produced `c.res`.
 */
export async function runIdempotently(
  c: Context<AppEnv>,
  deps: AppDeps,
  call: IdempotentCall,
  next: () => Promise<void>,
): Promise<Response | undefined> {
  const { scope } = call;
  const fingerprint = await sha256Hex(call.request);
  const leaseMs = deps.config.idempotencyLeaseMs ?? DEFAULT_IDEMPOTENCY_LEASE_MS;
  const now = deps.clock.now();
  const claim = beginClaim();
  let existing: Awaited<ReturnType<typeof claimIdempotencyKey>>;
  try {
    existing = await claimIdempotencyKey(
      deps.db,
      scope,
      fingerprint,
      {
        ownerId: PROCESS_OWNER_ID,
        claimId: claim.claimId,
        now,
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
        liveClaimIds: liveIdempotencyClaims(),
      },
      new Date(now.getTime() - KEY_LIFETIME_MS),
      new Date(now.getTime() - ABANDONED_AFTER_MS),
    );
  } catch (error) {
    await claim.end();
    throw error;
  }
  if (existing) {
    await claim.end();
    if (existing.fingerprint !== fingerprint) {
      throw call.fail(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request.',
      );
    }
    if (existing.status === 'in_progress') {
      throw call.fail(
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        { headers: { 'retry-after': '1' } },
      );
    }
    const status = existing.response_status ?? 200;
    const body =
      existing.response_body === null
        ? ''
        : await deps.cipher.decrypt(existing.response_body, answerContext(scope));
    const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
    return c.body(body, status as 200, { 'content-type': contentType, 'idempotent-replayed': 'true' });
  }
  claim.startRenewing(
    () =>
      renewIdempotencyLease(deps.db, scope, claim.claimId, new Date(deps.clock.now().getTime() + leaseMs)),
    leaseMs,
    deps.logger,
  );
  let sealedStatus: number | undefined;
  c.set('idempotentAnswer', {
    async seal(status, value) {
      const body = await deps.cipher.encrypt(JSON.stringify(value), answerContext(scope));
      sealedStatus = status;
      return { scope, claimId: claim.claimId, status, body };
    },
  });
  // The claim stays live (renewed, and never taken over by this process) until its answer is stored.
  try {
    try {
      await next();
    } catch (error) {
      await releaseIdempotencyKey(deps.db, scope, claim.claimId).catch(() => {});
      throw error;
    }
    if (c.res.status >= 500) {
      await releaseIdempotencyKey(deps.db, scope, claim.claimId);
      return undefined;
    }
    // Stored already, with the effect, when the route sealed the answer it gave.
    if (sealedStatus === c.res.status) return undefined;
    const body = await c.res.clone().text();
    await completeIdempotencyKey(deps.db, {
      scope,
      claimId: claim.claimId,
      status: c.res.status,
      body: await deps.cipher.encrypt(body, answerContext(scope)),
    });
    return undefined;
  } finally {
    await claim.end();
  }
}
