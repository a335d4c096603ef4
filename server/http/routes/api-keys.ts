import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { issueApiKey } from '../../features/auth/api-key-secrets.ts';
import { ENVIRONMENTS } from '../../domain/api-key-format.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { commitWithAnswer } from '../idempotent-replay.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { type ApiKeyRow, findApiKey, insertApiKey, listApiKeys, revokeApiKey } from '../../store/api-keys.ts';
import { listOf } from './schemas/session-schemas.ts';

const ApiKeySchema = z
  .object({
    object: z.literal('api_key'),
    api_key_id: z.string(),
    name: z.string(),
    environment: z.enum(ENVIRONMENTS),
    prefix: z.string().openapi({ example: 'sk_sandbox_Ab3dE9xY' }),
    last4: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .openapi('ApiKey');

const CreatedApiKeySchema = ApiKeySchema.extend({
  secret: z.string().openapi({ description: 'The key itself. Shown only in this response: store it now.' }),
}).openapi('CreatedApiKey');

const CreateApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).openapi({ example: 'backend (staging)' }),
    environment: z.enum(ENVIRONMENTS),
  })
  .openapi('CreateApiKeyRequest');

const ApiKeyIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

function toApiKeyObject(row: ApiKeyRow) {
  return {
    object: 'api_key' as const,
    api_key_id: row.id,
    name: row.name,
    environment: row.environment,
    prefix: `${row.environment === 'sandbox' ? 'sk_sandbox_' : 'sk_live_'}${row.key_id}`,
    last4: row.last4,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

const listApiKeysRoute = createRoute({
  operationId: 'listApiKeys',
  method: 'get',
  path: '/v1/api-keys',
  tags: ['API keys'],
  summary: 'List API keys (never their secrets)',
  description: 'The keys of the environment the console token names (`x-environment`, default production).',
  security: [{ ConsoleBearer: [] }],
  responses: {
    200: {
      description: "The tenant's keys of that environment",
      content: { 'application/json': { schema: listOf(ApiKeySchema, 'ApiKeyList') } },
    },
    ...errorResponses(...AUTH_ERRORS),
  },
});

const createApiKeyRoute = createRoute({
  operationId: 'createApiKey',
  method: 'post',
  path: '/v1/api-keys',
  tags: ['API keys'],
  summary: 'Create an API key',
  description:
    'The `secret` is returned once. Developers may create sandbox keys only. `environment` must be the one the console token names (`x-environment`): a token acts on its own environment only.',
  security: [{ ConsoleBearer: [] }],
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateApiKeyBody } } },
  },
  responses: {
    201: {
      description: 'The new key with its secret',
      content: { 'application/json': { schema: CreatedApiKeySchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
    ),
  },
});

const revokeApiKeyRoute = createRoute({
  operationId: 'revokeApiKey',
  method: 'delete',
  path: '/v1/api-keys/{id}',
  tags: ['API keys'],
  summary: 'Revoke an API key',
  description:
    'Takes effect at once on this instance and within 10 s everywhere. Idempotent. A key of another environment than the one the console token names (`x-environment`) is not found.',
  security: [{ ConsoleBearer: [] }],
  request: { params: ApiKeyIdParam },
  responses: {
    200: { description: 'The revoked key', content: { 'application/json': { schema: ApiKeySchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerApiKeys(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  const admin = { capability: 'api_keys:write' as const };

  app.openapi({ ...listApiKeysRoute, middleware: kit.tenant(admin) }, async (c) => {
    const principal = c.get('principal');
    const rows = await listApiKeys(deps.db, principal.tenantId);
    // A console token acts on the environment it names: the other environment's keys are not its own.
    const own = rows.filter((row) => row.environment === principal.environment);
    return c.json({ object: 'list' as const, data: own.map(toApiKeyObject), has_more: false }, 200);
  });

  app.openapi({ ...createApiKeyRoute, middleware: kit.tenant({ ...admin, body: 'json' }) }, async (c) => {
    const { name, environment } = c.req.valid('json');
    const principal = c.get('principal');
    if (environment !== principal.environment) {
      throw new ApiError(
        'invalid_parameter',
        `This console token acts on ${principal.environment} (\`x-environment\`): create a ${environment} key with \`x-environment: ${environment}\`.`,
        { param: 'environment' },
      );
    }
    if (environment === 'production' && principal.user?.role !== 'tenant_admin') {
      throw new ApiError('insufficient_capability', 'Only a tenant admin may create production keys.', {
        param: 'environment',
      });
    }
    const issued = await issueApiKey(environment);
    // The secret is shown once: a retry after a crash must replay this answer, not make a second key.
    const answer = await commitWithAnswer(
      c,
      deps.db,
      201,
      (sql) =>
        insertApiKey(sql, {
          id: deps.ids('key'),
          tenant_id: principal.tenantId,
          environment,
          name,
          key_id: issued.keyId,
          secret_hash: issued.secretHash,
          last4: issued.last4,
          created_by: principal.user?.id ?? null,
          created_at: deps.clock.now(),
        }),
      (row) => ({ ...toApiKeyObject(row), secret: issued.secret }),
    );
    return c.json(answer, 201);
  });

  app.openapi({ ...revokeApiKeyRoute, middleware: kit.tenant(admin) }, async (c) => {
    const { id } = c.req.valid('param');
    const principal = c.get('principal');
    const found = await findApiKey(deps.db, principal.tenantId, id);
    // Another environment's key is as unknown as a made-up id to a token that names this one.
    const existing = found?.environment === principal.environment ? found : null;
    if (!existing) throw new ApiError('resource_missing', `No API key \`${id}\`.`, { param: 'id' });
    if (existing.environment === 'production' && principal.user?.role !== 'tenant_admin') {
      throw new ApiError('insufficient_capability', 'Only a tenant admin may revoke production keys.');
    }
    const row = (await revokeApiKey(deps.db, principal.tenantId, id, deps.clock.now())) ?? existing;
    kit.auth.forgetApiKey(row.key_id);
    return c.json(toApiKeyObject(row), 200);
  });
}
