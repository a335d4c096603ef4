import type { Environment } from '../domain/api-key-format.ts';
import type { SessionStatus } from '../domain/session-status.ts';
import type { Flow, StepName, StepProgress, Tier } from '../domain/session-steps.ts';
import type { EventRow } from './events.ts';
import {
  claimWithAnswerParams,
  claimWithAnswerStatement,
  type StoredAnswer,
  storeAnswerParams,
  storeAnswerStatement,
} from './idempotency.ts';
import type { SqlClient } from './sql-client.ts';

export interface SessionRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  status: SessionStatus;
  country: string;
  flow: Flow;
  tier: Tier;
  external_user_ref_enc: string | null;
  external_user_ref_index: string | null;
  redirect_url: string | null;
  metadata_enc: string | null;
  required_steps: StepName[];
  steps: StepProgress[];
  verify_token_hash: string | null;
  verify_token_nonce: string | null;
  identity_id: string | null;
  decision: string | null;
  last_error: { code: string; reason: string } | null;
  reverification_request_id: string | null;
  sandbox: Record<string, unknown> | null;
  resubmissions: number;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
  decided_at: Date | null;
}

export type NewSession = Pick<
  SessionRow,
  | 'id'
  | 'tenant_id'
  | 'environment'
  | 'country'
  | 'flow'
  | 'tier'
  | 'external_user_ref_enc'
  | 'external_user_ref_index'
  | 'redirect_url'
  | 'metadata_enc'
  | 'required_steps'
  | 'steps'
  | 'verify_token_hash'
  | 'verify_token_nonce'
  | 'sandbox'
  | 'expires_at'
  | 'created_at'
>;

/** Tenant and environment always come from the credential: every lookup is scoped by both. */
export interface Scope {
  tenantId: string;
  environment: Environment;
}

const INSERT_SESSION = `insert into sessions (id, tenant_id, environment, status, country, flow, tier,
       external_user_ref_enc, external_user_ref_index, redirect_url, metadata_enc, required_steps, steps,
       verify_token_hash, verify_token_nonce, sandbox, expires_at, created_at, updated_at)
     values ($1, $2, $3, 'created', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
     returning *`;

/** INSERT_SESSION, run only when the `claimed` step of the same statement claimed its Idempotency-Key. */
const INSERT_SESSION_IF_CLAIMED = `insert into sessions (id, tenant_id, environment, status, country, flow, tier,
       external_user_ref_enc, external_user_ref_index, redirect_url, metadata_enc, required_steps, steps,
       verify_token_hash, verify_token_nonce, sandbox, expires_at, created_at, updated_at)
     select $1, $2, $3, 'created', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17
      where exists (select 1 from claimed)
     returning *`;

function insertSessionParams(session: NewSession): unknown[] {
  return [
    session.id,
    session.tenant_id,
    session.environment,
    session.country,
    session.flow,
    session.tier,
    session.external_user_ref_enc,
    session.external_user_ref_index,
    session.redirect_url,
    session.metadata_enc,
    JSON.stringify(session.required_steps),
    JSON.stringify(session.steps),
    session.verify_token_hash,
    session.verify_token_nonce,
    session.sandbox === null ? null : JSON.stringify(session.sandbox),
    session.expires_at,
    session.created_at,
  ];
}

export async function insertSession(sql: SqlClient, session: NewSession): Promise<SessionRow> {
  const rows = await sql.query<SessionRow>(INSERT_SESSION, insertSessionParams(session));
  return rows[0] as SessionRow;
}

/**
 * Inserts a session and its `session.created` event in one statement, so both commit or neither does
 * without a transaction around them: one round trip instead of four (begin, two inserts, commit), which is
 * most of what a create costs on either engine.
 *
 * When the tenant has no webhook endpoint in this environment (of any status: a disabled one may be
 * re-enabled before the worker gets to the event), the event is written already fanned out: there is
 * nobody to deliver it to, and otherwise the in-process webhook worker would spend CPU on every create
 * only to find that out (issue #13). Tenants with an endpoint are fanned out by the worker exactly as
 * before. The one difference: an endpoint whose creation commits while this statement
 * runs does not receive this event, which was already a race against the worker's next round.
 */
/** The row insertSessionWithEvent writes, as the database returns it, known before it is written. */
export function newSessionRow(session: NewSession): SessionRow {
  return {
    ...session,
    status: 'created',
    identity_id: null,
    decision: null,
    last_error: null,
    reverification_request_id: null,
    resubmissions: 0,
    updated_at: session.created_at,
    submitted_at: null,
    decided_at: null,
  };
}

/**
 * Inserts a session with its `session.created` event in one statement, and the Idempotency-Key answer
 * when there is one, so a crash cannot keep the session and lose the answer.
 */
export async function insertSessionWithEvent(
  sql: SqlClient,
  session: NewSession,
  event: EventRow,
  answer?: StoredAnswer,
): Promise<boolean> {
  if (answer?.unclaimed)
    return insertSessionClaimingKey(sql, session, event, { ...answer, unclaimed: answer.unclaimed });
  const params = [
    ...insertSessionParams(session),
    event.id,
    event.type,
    JSON.stringify(event.payload),
    event.created_at,
  ];
  await sql.query(
    `with inserted as (${INSERT_SESSION}),
       event as (
         insert into events (id, tenant_id, environment, type, session_id, identity_id, payload, created_at,
           fanned_out_at)
         select $18, i.tenant_id, i.environment, $19, i.id, i.identity_id, $20, $21,
           case when exists (
             select 1 from webhooks w
             where w.tenant_id = i.tenant_id and w.environment = i.environment and w.deleted_at is null
           ) then null else $21::timestamptz end
         from inserted i
       )${
         answer
           ? `,
       answered as (${storeAnswerStatement(params.length + 1)})`
           : ''
       }
     select 1`,
    answer ? [...params, ...storeAnswerParams(answer)] : params,
  );
  return true;
}

/**
 * insertSessionWithEvent for an Idempotency-Key not claimed yet: one statement claims the key with its
 * answer and, only if that claim succeeded, inserts the session and its event. False when the key was
 * taken (another attempt holds or answered it): nothing was inserted.
 */
async function insertSessionClaimingKey(
  sql: SqlClient,
  session: NewSession,
  event: EventRow,
  answer: StoredAnswer & Required<Pick<StoredAnswer, 'unclaimed'>>,
): Promise<boolean> {
  const params = [
    ...insertSessionParams(session),
    event.id,
    event.type,
    JSON.stringify(event.payload),
    event.created_at,
  ];
  const rows = await sql.query<{ claimed: number }>(
    `with claimed as (${claimWithAnswerStatement(params.length + 1)}),
       inserted as (${INSERT_SESSION_IF_CLAIMED}),
       event as (
         insert into events (id, tenant_id, environment, type, session_id, identity_id, payload, created_at,
           fanned_out_at)
         select $18, i.tenant_id, i.environment, $19, i.id, i.identity_id, $20, $21,
           case when exists (
             select 1 from webhooks w
             where w.tenant_id = i.tenant_id and w.environment = i.environment and w.deleted_at is null
           ) then null else $21::timestamptz end
         from inserted i
       )
     select count(*)::int as claimed from claimed`,
    [...params, ...claimWithAnswerParams(answer)],
  );
  return (rows[0]?.claimed ?? 0) > 0;
}

export async function findSession(sql: SqlClient, scope: Scope, id: string): Promise<SessionRow | null> {
  const rows = await sql.query<SessionRow>(
    'select * from sessions where id = $1 and tenant_id = $2 and environment = $3',
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

/** Locks the row for the rest of the transaction, so concurrent transitions serialise. */
export async function findSessionForUpdate(
  sql: SqlClient,
  scope: Scope,
  id: string,
): Promise<SessionRow | null> {
  const rows = await sql.query<SessionRow>(
    'select * from sessions where id = $1 and tenant_id = $2 and environment = $3 for update',
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export interface SessionChanges {
  status?: SessionStatus;
  steps?: StepProgress[];
  verify_token_hash?: string | null;
  verify_token_nonce?: string | null;
  decision?: string | null;
  last_error?: { code: string; reason: string } | null;
  submitted_at?: Date;
  decided_at?: Date;
  /** A sandbox session's forced outcome, chosen when it is created or at its end (API.md §9). */
  sandbox?: Record<string, unknown> | null;
}

const CHANGEABLE_COLUMNS = [
  'status',
  'steps',
  'verify_token_hash',
  'verify_token_nonce',
  'decision',
  'last_error',
  'submitted_at',
  'decided_at',
  'sandbox',
] as const satisfies readonly (keyof SessionChanges)[];
const JSON_COLUMNS = new Set(['steps', 'last_error', 'sandbox']);

/**
 * Applies changes only if the session is still in `expectedStatus` (compare-and-set), so two racing
 * transitions cannot both win. Returns null when the status moved underneath.
 */
export async function updateSession(
  sql: SqlClient,
  id: string,
  expectedStatus: SessionStatus,
  changes: SessionChanges,
  now: Date,
): Promise<SessionRow | null> {
  const sets: string[] = ['updated_at = $3'];
  const params: unknown[] = [id, expectedStatus, now];
  for (const column of CHANGEABLE_COLUMNS) {
    if (!(column in changes)) continue;
    const value = changes[column];
    params.push(JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  const rows = await sql.query<SessionRow>(
    `update sessions set ${sets.join(', ')} where id = $1 and status = $2 returning *`,
    params,
  );
  return rows[0] ?? null;
}

export interface SessionFilters {
  statuses?: SessionStatus[];
  flow?: Flow;
  tier?: Tier;
  country?: string;
  externalUserRefIndex?: string;
  identityId?: string;
  createdGte?: Date;
  createdLte?: Date;
  /** `q` of the list: matches any of the three (features/review-queue/session-search.ts). */
  search?: SessionSearch | undefined;
  /** Sessions whose latest decision carries any of these reason codes. */
  reasonCodes?: string[] | undefined;
}

/** A free-text search, already turned into what can be compared without decrypting a row. */
export interface SessionSearch {
  /** The text as a session id, when it looks like one. */
  sessionId: string | null;
  externalUserRefIndex: string;
  /** Blind indexes of the text's name words: a session matches when it has every one. */
  nameTokenIndexes: string[];
}

export interface Page {
  limit: number;
  /** The cursor object's position: items after it (`after`) or before it (`before`) in the list's order. */
  after?: { created_at: Date; id: string };
  before?: { created_at: Date; id: string };
}

/** The list's order by creation: newest first (the default everywhere) or oldest first. */
export type ListOrder = 'desc' | 'asc';

/**
 * One page of sessions in `order` (newest first by default); fetches one extra row to know whether more
 * exist. `before` pages are read in the opposite order and turned back, so every page reads in `order`.
 */
export async function listSessions(
  sql: SqlClient,
  scope: Scope,
  filters: SessionFilters,
  page: Page,
  order: ListOrder = 'desc',
): Promise<{ rows: SessionRow[]; hasMore: boolean }> {
  const where: string[] = ['tenant_id = $1', 'environment = $2'];
  const params: unknown[] = [scope.tenantId, scope.environment];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filters.statuses?.length) add((p) => `status = any(${p}::text[])`, filters.statuses);
  if (filters.flow) add((p) => `flow = ${p}`, filters.flow);
  if (filters.tier) add((p) => `tier = ${p}`, filters.tier);
  if (filters.country) add((p) => `country = ${p}`, filters.country);
  if (filters.externalUserRefIndex)
    add((p) => `external_user_ref_index = ${p}`, filters.externalUserRefIndex);
  if (filters.identityId) add((p) => `identity_id = ${p}`, filters.identityId);
  if (filters.createdGte) add((p) => `created_at >= ${p}`, filters.createdGte);
  if (filters.createdLte) add((p) => `created_at <= ${p}`, filters.createdLte);
  where.push(
    ...searchAndReasonClauses(filters, (value) => {
      params.push(value);
      return `$${params.length}`;
    }),
  );

  // Reading direction: the list's own, or the opposite one for a `before` page.
  const ascending = (order === 'asc') !== (page.before !== undefined);
  const cursor = page.after ?? page.before;
  if (cursor) {
    params.push(cursor.created_at, cursor.id);
    where.push(`(created_at, id) ${ascending ? '>' : '<'} ($${params.length - 1}, $${params.length})`);
  }
  const direction = ascending ? 'asc' : 'desc';
  params.push(page.limit + 1);
  const rows = await sql.query<SessionRow>(
    `select * from sessions where ${where.join(' and ')}
      order by created_at ${direction}, id ${direction} limit $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  return { rows: page.before ? pageRows.reverse() : pageRows, hasMore };
}

/**
 * The `q` and `reason_code` filters as SQL conditions on `sessions`, shared by the list, the review queue
 * and the export. `param` binds a value and answers its placeholder.
 */
export function searchAndReasonClauses(filters: SessionFilters, param: (value: unknown) => string): string[] {
  const clauses: string[] = [];
  const search = filters.search;
  if (search) {
    const alternatives = [`sessions.external_user_ref_index = ${param(search.externalUserRefIndex)}`];
    if (search.sessionId) alternatives.push(`sessions.id = ${param(search.sessionId)}`);
    if (search.nameTokenIndexes.length > 0) {
      // Every word of the query must be one of the session's name words. Read from the digests' own
      // index, so a name search touches the sessions that carry the words, not every session in scope.
      alternatives.push(
        `sessions.id in (select t.session_id from session_name_tokens t
            where t.token_index = any(${param(search.nameTokenIndexes)}::text[])
            group by t.session_id having count(*) = ${param(search.nameTokenIndexes.length)})`,
      );
    }
    clauses.push(`(${alternatives.join(' or ')})`);
  }
  if (filters.reasonCodes?.length) {
    clauses.push(`exists (
      select 1 from (select reasons from session_decisions d where d.session_id = sessions.id
                      order by d.id desc limit 1) latest, jsonb_array_elements(latest.reasons) reason
       where reason->>'code' = any(${param(filters.reasonCodes)}::text[]))`);
  }
  return clauses;
}

/** Sessions past their deadline that are still open, for the sweeper and for list reads. */
export async function findOverdueSessionIds(
  sql: SqlClient,
  now: Date,
  limit: number,
): Promise<Pick<SessionRow, 'id' | 'tenant_id' | 'environment'>[]> {
  return sql.query(
    `select id, tenant_id, environment from sessions
      where status in ('created', 'collecting') and expires_at <= $1 order by expires_at limit $2`,
    [now, limit],
  );
}
