import type { Context } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import { sha256Hex } from '../crypto/primitives.ts';
import { ApiError, type ApiErrorOptions } from '../errors/api-error.ts';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem.ts';
import {
  claimIdempotencyKey,
  claimWithAnswerParams,
  claimWithAnswerStatement,
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
  /**
   * The route claims the key in the very statement of its effect (see IdempotentAnswer's `keyTaken`), so
   * the key costs no statement of its own: for a route whose effect is one statement (session create).
   */
  claimWithEffect?: boolean;
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
  /**
   * With `claimWithEffect`: the route's statement found the key held or answered by another attempt and
   * did nothing; the answer is then that of a retry (a replay, 409 or 422), whatever the route answers.
   */
  keyTaken(): void;
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
  if (call.claimWithEffect) return runClaimingWithEffect(c, deps, call, fingerprint, next);
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
    return answerOfExisting(c, deps, call, fingerprint, existing);
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
    keyTaken() {
      // Only a route claiming with its effect sees a taken key; this key is claimed already.
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

/** What a retry gets when the key's row exists: its stored answer, or 422 / 409 (thrown). */
async function answerOfExisting(
  c: Context<AppEnv>,
  deps: AppDeps,
  call: IdempotentCall,
  fingerprint: string,
  existing: NonNullable<Awaited<ReturnType<typeof claimIdempotencyKey>>>,
): Promise<Response> {
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
      : await deps.cipher.decrypt(existing.response_body, answerContext(call.scope));
  const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
  return c.body(body, status as 200, { 'content-type': contentType, 'idempotent-replayed': 'true' });
}

/**
 * runIdempotently for a route that claims the key in the statement of its effect (`claimWithEffect`): no
 * statement before the route runs. The route's statement claims the key on the same terms as
 * claimIdempotencyKey and stores the answer, and applies the effect only if the claim succeeded; when it
 * did not (another attempt holds or answered the key), the route reports `keyTaken` and the request is
 * answered as the retry it is. Two attempts at once may both do the route's work up to that statement;
 * only one commits. An answer the route did not seal (a refusal) is claimed and stored after it, if the
 * key is still free; a 5xx stores nothing.
 */
async function runClaimingWithEffect(
  c: Context<AppEnv>,
  deps: AppDeps,
  call: IdempotentCall,
  fingerprint: string,
  next: () => Promise<void>,
): Promise<Response | undefined> {
  const { scope } = call;
  const leaseMs = deps.config.idempotencyLeaseMs ?? DEFAULT_IDEMPOTENCY_LEASE_MS;
  const now = deps.clock.now();
  const claim = beginClaim();
  const terms = () => ({
    fingerprint,
    claim: {
      ownerId: PROCESS_OWNER_ID,
      claimId: claim.claimId,
      now,
      leaseExpiresAt: new Date(now.getTime() + leaseMs),
      liveClaimIds: liveIdempotencyClaims(),
    },
    expiredBefore: new Date(now.getTime() - KEY_LIFETIME_MS),
    staleBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
  });
  let sealedStatus: number | undefined;
  let taken = false;
  c.set('idempotentAnswer', {
    async seal(status, value) {
      const body = await deps.cipher.encrypt(JSON.stringify(value), answerContext(scope));
      sealedStatus = status;
      return { scope, claimId: claim.claimId, status, body, unclaimed: terms() };
    },
    keyTaken() {
      taken = true;
    },
  });
  try {
    await next();
    if (!taken) {
      if (c.res.status >= 500 || sealedStatus === c.res.status) return undefined;
      const answer = {
        scope,
        claimId: claim.claimId,
        status: c.res.status,
        body: await deps.cipher.encrypt(await c.res.clone().text(), answerContext(scope)),
        unclaimed: terms(),
      };
      const stored = await deps.db.query(claimWithAnswerStatement(1), claimWithAnswerParams(answer));
      if (stored.length > 0) return undefined;
    }
  } finally {
    await claim.end();
  }
  // Another attempt holds or answered the key: answered as a retry of it.
  const retry = beginClaim();
  try {
    const existing = await claimIdempotencyKey(
      deps.db,
      scope,
      fingerprint,
      {
        ownerId: PROCESS_OWNER_ID,
        claimId: retry.claimId,
        now,
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
        liveClaimIds: liveIdempotencyClaims(),
      },
      new Date(now.getTime() - KEY_LIFETIME_MS),
      new Date(now.getTime() - ABANDONED_AFTER_MS),
    );
    if (!existing) {
      // Freed meanwhile (the other attempt failed): not ours to run now; the client's retry will.
      await releaseIdempotencyKey(deps.db, scope, retry.claimId);
      throw call.fail(
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        { headers: { 'retry-after': '1' } },
      );
    }
    c.res = await answerOfExisting(c, deps, call, fingerprint, existing);
    return undefined;
  } finally {
    await retry.end();
  }
}
