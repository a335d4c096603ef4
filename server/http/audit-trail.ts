import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import type { AppDeps } from '../app-deps.ts';
import type { Environment } from '../domain/api-key-format.ts';
import type { AppEnv, Principal } from './app-env.ts';
import { findUsersByEmail } from '../store/users.ts';
import { MAX_ACCOUNTS_TRIED } from '../features/users/login-account.ts';
import {
  type AuditEntry,
  actorOf,
  auditOriginOf,
  recordAuditEvent,
  recordAuditEvents,
} from '../features/audit/record-audit-event.ts';

type Json = Record<string, unknown>;

/** What a rule sees of a request that succeeded. */
interface SucceededRequest {
  params: Record<string, string>;
  /** The parsed JSON body; the route's strict schema has already refused unknown fields. */
  body: Json;
  /** The 2xx response's JSON. */
  response: Json;
  /** Absent only for the login, which has no credential yet. */
  principal: Principal | undefined;
}

/** Turns a succeeded operation into its audit entry; null when there is nothing to record. */
type AuditRule = (request: SucceededRequest) => AuditEntry | null;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const fieldNames = (body: Json): string[] => Object.keys(body).sort();
const environmentOf = (value: unknown): Environment | null =>
  value === 'sandbox' || value === 'production' ? value : null;

/** The principal's tenant, actor and environment: the common case of an authenticated write. */
function byPrincipal(
  principal: Principal | undefined,
  entry: Omit<AuditEntry, 'tenantId' | 'actor'>,
  environmentScoped = true,
): AuditEntry | null {
  if (!principal) return null;
  return {
    tenantId: principal.tenantId,
    actor: actorOf(principal),
    environment: environmentScoped ? principal.environment : null,
    ...entry,
  };
}

/**
 * The operations the audit log records, by operationId. Anything not listed (reads, end-user verify
 * calls, session traffic of API keys) is not an audit event. User management is not listed either: its
 * routes record their events in the same transaction as the change, with the before and after values
 * only they know (server/http/routes/users-*.ts).
 */
const RULES: Record<string, AuditRule> = {
  consoleLogin: ({ response }) => {
    const user = response['user'] as Json | undefined;
    const userId = text(user?.['user_id']);
    if (!userId) return null;
    return {
      action: 'console.login',
      tenantId: text(user?.['tenant_id']),
      actor: { type: 'user', id: userId },
      target: { type: 'user', id: userId },
    };
  },
  consoleLogout: ({ principal }) =>
    byPrincipal(
      principal,
      { action: 'console.logout', target: { type: 'user', id: principal?.user?.id ?? null } },
      false,
    ),
  reviewSession: ({ principal, params, body }) =>
    byPrincipal(principal, {
      action: body['decision'] === 'approve' ? 'session.review_approved' : 'session.review_rejected',
      target: { type: 'session', id: text(params['id']) },
      details: { reason_codes: Array.isArray(body['reason_codes']) ? body['reason_codes'].map(String) : [] },
    }),
  createApiKey: ({ principal, response }) =>
    byPrincipal(principal, {
      action: 'api_key.created',
      environment: environmentOf(response['environment']),
      target: { type: 'api_key', id: text(response['api_key_id']) },
    }),
  revokeApiKey: ({ principal, params, response }) =>
    byPrincipal(principal, {
      action: 'api_key.revoked',
      environment: environmentOf(response['environment']),
      target: { type: 'api_key', id: text(params['id']) },
    }),
  createWebhook: ({ principal, response }) =>
    byPrincipal(principal, {
      action: 'webhook.created',
      target: { type: 'webhook', id: text(response['webhook_id']) },
      details: { events: Array.isArray(response['events']) ? response['events'].map(String) : [] },
    }),
  updateWebhook: ({ principal, params, body }) =>
    byPrincipal(principal, {
      action: 'webhook.updated',
      target: { type: 'webhook', id: text(params['id']) },
      // Field names, and the status (a code); never the URL or the description.
      details: { fields: fieldNames(body), ...(body['status'] ? { status: String(body['status']) } : {}) },
    }),
  deleteWebhook: ({ principal, params }) =>
    byPrincipal(principal, {
      action: 'webhook.deleted',
      target: { type: 'webhook', id: text(params['id']) },
    }),
  rotateWebhookSecret: ({ principal, params, body }) =>
    byPrincipal(principal, {
      action: 'webhook.secret_rotated',
      target: { type: 'webhook', id: text(params['id']) },
      details:
        typeof body['previous_secret_expires_in'] === 'number'
          ? { previous_secret_expires_in: body['previous_secret_expires_in'] }
          : {},
    }),
  testWebhook: ({ principal, params, response }) =>
    byPrincipal(principal, {
      action: 'webhook.tested',
      target: { type: 'webhook', id: text(params['id']) },
      details: {
        delivered: response['delivered'] === true,
        status_class: text(response['status_class']),
      },
    }),
  updateTenant: ({ principal, body }) =>
    byPrincipal(
      principal,
      {
        action: 'tenant.updated',
        target: { type: 'tenant', id: principal?.tenantId ?? null },
        details: { fields: fieldNames(body) },
      },
      false,
    ),
  putWatchlist: ({ principal, body }) =>
    byPrincipal(principal, {
      action: 'watchlist.replaced',
      target: { type: 'watchlist', id: null },
      // How many entries, never who is on the list.
      details: { entries: Array.isArray(body['entries']) ? body['entries'].length : 0 },
    }),
};

/** The problem codes of a refused login, recorded as `console.login_failed` with the code as reason. */
const FAILED_LOGIN_STATUSES = new Set([401, 403, 429]);

/** Keyed digests of unknown login addresses use their own purpose, so they match no other blind index. */
const UNKNOWN_ACCOUNT_PURPOSE = 'audit_unknown_login_email';

async function responseJson(c: Context<AppEnv>): Promise<Json> {
  if (!(c.res.headers.get('content-type') ?? '').includes('json')) return {};
  try {
    const parsed: unknown = await c.res.clone().json();
    return parsed && typeof parsed === 'object' ? (parsed as Json) : {};
  } catch {
    return {};
  }
}

function jsonBodyOf(c: Context<AppEnv>): Json {
  const body = c.get('jsonBody');
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : {};
}

/**
 * A refused login, in the log of each tenant whose account it was tried against: an address may have an
 * account in several tenants (unique per tenant) and, without `tenant_id`, the password is tried against
 * each of them (features/users/login-account.ts), so each tenant sees the attempt on its own member, by
 * user id, and learns nothing about the others. With `tenant_id`, only that tenant's account was tried.
 * A refusal about one account (`user_disabled`) is recorded for the accounts it can be about. An address
 * with no account is recorded once, by a keyed digest, in no tenant's log; the typed address itself is
 * never stored.
 */
async function failedLoginEntries(c: Context<AppEnv>, deps: AppDeps): Promise<AuditEntry[]> {
  const body = jsonBodyOf(c);
  const email = body['email'];
  if (typeof email !== 'string') return [];
  const tenantId = text(body['tenant_id']) ?? undefined;
  const reason = text((await responseJson(c))['code']) ?? 'unknown';
  const emailKey = email.trim().toLowerCase();
  const accounts = (
    await findUsersByEmail(deps.db, emailKey, { tenantId, limit: MAX_ACCOUNTS_TRIED })
  ).filter((account) => reason !== 'user_disabled' || account.status === 'disabled');
  if (accounts.length > 0) {
    return accounts.map((account) => ({
      action: 'console.login_failed',
      tenantId: account.tenant_id,
      actor: { type: 'user', id: account.id },
      target: { type: 'user', id: account.id },
      details: { reason },
    }));
  }
  return [
    {
      action: 'console.login_failed',
      tenantId: null,
      actor: {
        type: 'unknown_account',
        id: await deps.cipher.blindIndex(emailKey, UNKNOWN_ACCOUNT_PURPOSE),
      },
      details: { reason },
    },
  ];
}

/**
 * Records the audit log's events for operations whose routes know nothing about it: after the route has
 * answered, the matched route's operationId picks a rule (RULES) that turns the request's path parameters,
 * its (allow-listed) body and its 2xx response into an event. A replayed idempotent response records
 * nothing (the first answer did). Refused logins are recorded too, since no route sees those succeed.
 *
 * The event is written after the change committed: if writing it fails, the caller still gets the answer
 * of the change it made and the failure is logged for the operators (the request id ties the two).
 *
 * @example
 * app.use('/v1/*', auditTrail(deps, app));
 */
export function auditTrail(deps: AppDeps, app: OpenAPIHono<AppEnv>): MiddlewareHandler<AppEnv> {
  let operations: Map<string, string> | undefined;
  /** `METHOD /v1/path/:param` → operationId, read from the OpenAPI registry once every route exists. */
  const operationIdOf = (method: string, path: string): string | undefined => {
    operations ??= new Map(
      app.openAPIRegistry.definitions.flatMap((definition) =>
        definition.type === 'route' && definition.route.operationId
          ? [
              [
                `${definition.route.method.toUpperCase()} ${definition.route.path.replaceAll(/\/{(.+?)}/g, '/:$1')}`,
                definition.route.operationId,
              ] as const,
            ]
          : [],
      ),
    );
    return operations.get(`${method} ${path}`);
  };

  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return;
    // After next(), the route index points at the handler that answered: its path names the operation.
    const operationId = operationIdOf(c.req.method, routePath(c));
    if (!operationId) return;
    const status = c.res.status;
    try {
      let entry: AuditEntry | null = null;
      if (operationId === 'consoleLogin' && FAILED_LOGIN_STATUSES.has(status)) {
        // One statement whatever the number of tenants, so the answer's timing does not count them.
        await recordAuditEvents(deps.db, deps, auditOriginOf(c, deps), await failedLoginEntries(c, deps));
      } else if (status >= 200 && status < 300) {
        // The rule first: reading a response's headers makes the Node adapter build a web `Headers`
        // object for it, and most writes (every session create) have no rule.
        const rule = RULES[operationId];
        if (!rule || c.res.headers.get('idempotent-replayed') === 'true') return;
        entry = rule({
          params: c.req.param() as Record<string, string>,
          body: jsonBodyOf(c),
          response: await responseJson(c),
          principal: c.get('principal'),
        });
      }
      if (entry) await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), entry);
    } catch (error) {
      deps.logger?.error('audit event not recorded', {
        request_id: c.get('requestId'),
        operation: operationId,
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  });
}
