// The peer `npm run bench:api` compares ours with: a minimal, well-built Fastify 5 + pg server doing the
// work of `POST /v1/sessions` and `GET /v1/sessions/:id` on the same tables (the runner migrates its
// database with our own migrations, so the schema and indexes are identical). Not shipped; bench only.
//
// What it does, as ours does:
// - reads `x-api-key`, hashes it with SHA-256 and looks the key up by its public key_id and that hash in
//   `api_keys` joined to `tenants` (unrevoked key, active tenant): one indexed select per request;
// - validates the create body with a JSON schema (Fastify's compiled ajv validator): the same fields,
//   types, bounds and enums as ours, unknown fields rejected;
// - scopes every read by the key's tenant and environment (`where id = $1 and tenant_id = $2 and
//   environment = $3`), so a key never sees another tenant's session;
// - writes a create with one insert statement (`returning *`) and reads a session with one select;
// - answers with the same JSON shape (serialised by a compiled response schema) and `cache-control:
//   no-store` + `x-content-type-options: nosniff`, and every error as an RFC 9457 problem document
//   (`application/problem+json`, with type, title, status, detail, instance, code).
//
// What it does NOT do, and ours does:
// - no encryption of personal data: `external_user_reference` and `metadata` are stored in plain text
//   (ours: AES-256-GCM bound to row and column, plus a keyed blind index for lookups);
// - no derived verify token: a random token is stored in plain text next to its hash (ours stores only a
//   nonce and the hash and derives the token with an HMAC of the master key on every read);
// - no event row and so no webhooks: ours writes `session.created` to the outbox in the same statement
//   and runs the delivery worker in-process (unless IDV_WEBHOOK_WORKER=off);
// - no idempotency keys (ours stores and replays `Idempotency-Key` responses);
// - no rate limiting (ours counts every request against a window shared in the database, written in
//   batches while the count is far below the limit: see server/http/rate-limit-counter.ts);
// - no key cache and no `last_used_at` (ours caches the key row briefly and touches it once a minute);
// - no request ids, no request log line, no audit trail, no cross-site browser check, no control
//   character check, no country list check beyond the pattern, no `sandbox` / `redirect_url` production
//   rules, no CSP / referrer-policy headers, no rate-limit headers;
// - no OpenAPI document, docs, console, hosted page or any other route.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';

const DATABASE_URL = process.env['PEER_DATABASE_URL'];
if (!DATABASE_URL) throw new Error('PEER_DATABASE_URL is required');
const BASE_URL = process.env['PEER_BASE_URL'] ?? 'http://127.0.0.1';
/** The same pool size as ours (server/runtime/node/pg-database.ts). */
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });

const FLOW_STEPS: Record<string, string[]> = {
  user: ['consent', 'id_document'],
  business: ['consent', 'business_details', 'business_document', 'id_document'],
};
function requiredSteps(flow: string, tier: string): string[] {
  const base = FLOW_STEPS[flow] ?? [];
  if (tier === 'tier1') return base;
  if (tier === 'tier2') return [...base, 'liveness'];
  return [...base, 'liveness', 'proof_of_address'];
}

/** `sk_<sandbox|live>_<key_id 8><secret 22><checksum 6>`: the public key_id picks the row, the hash must match. */
const API_KEY = /^sk_(sandbox|live)_([0-9A-Za-z]{8})[0-9A-Za-z]{28}$/;

class Problem extends Error {
  status: number;
  code: string;
  constructor(status: number, code: string, detail: string) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

interface Principal {
  tenantId: string;
  environment: string;
}

async function authenticate(request: FastifyRequest): Promise<Principal> {
  const presented = request.headers['x-api-key'];
  if (typeof presented !== 'string') throw new Problem(401, 'authentication_required', 'Send x-api-key.');
  const keyId = API_KEY.exec(presented)?.[2];
  if (!keyId) throw new Problem(401, 'invalid_api_key', 'Not an API key.');
  const hash = createHash('sha256').update(presented).digest('hex');
  const { rows } = await pool.query<{ tenant_id: string; environment: string }>(
    `select k.tenant_id, k.environment from api_keys k join tenants t on t.id = k.tenant_id
     where k.key_id = $1 and k.secret_hash = $2 and k.revoked_at is null and t.status = 'active'`,
    [keyId, hash],
  );
  const row = rows[0];
  if (!row) throw new Problem(401, 'invalid_api_key', 'The API key is not known.');
  return { tenantId: row.tenant_id, environment: row.environment };
}

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['country', 'flow', 'tier'],
  properties: {
    country: { type: 'string', pattern: '^[A-Z]{3}$' },
    flow: { enum: ['user', 'business'] },
    tier: { enum: ['tier1', 'tier2', 'tier3'] },
    external_user_reference: { type: 'string', minLength: 1, maxLength: 255 },
    redirect_url: { type: 'string', maxLength: 2048, format: 'uri' },
    metadata: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { minLength: 1, maxLength: 40 },
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 500 },
    },
    expires_in: { type: 'integer', minimum: 900, maximum: 604800 },
    sandbox: {
      type: 'object',
      additionalProperties: false,
      required: ['outcome'],
      properties: {
        outcome: { enum: ['approved', 'rejected', 'review_required'] },
        reason_codes: { type: 'array', maxItems: 10, items: { type: 'string', pattern: '^[a-z_]{1,64}$' } },
        processing_delay_ms: { type: 'integer', minimum: 0, maximum: 60000 },
      },
    },
  },
} as const;

const nullableString = { type: ['string', 'null'] };
const sessionResponse = {
  type: 'object',
  properties: {
    object: { type: 'string' },
    session_id: { type: 'string' },
    verify_url: { type: 'string' },
    status: { type: 'string' },
    required_steps: { type: 'array', items: { type: 'string' } },
    expires_at: { type: 'string' },
    environment: { type: 'string' },
    country: { type: 'string' },
    flow: { type: 'string' },
    tier: { type: 'string' },
    external_user_reference: nullableString,
    redirect_url: nullableString,
    metadata: { type: 'object', additionalProperties: true },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          step: { type: 'string' },
          status: { type: 'string' },
          attempts_remaining: { type: 'integer' },
        },
      },
    },
    identity_id: nullableString,
    decision: nullableString,
    last_error: { type: ['object', 'null'], additionalProperties: true },
    reverification_request_id: nullableString,
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    submitted_at: nullableString,
    decided_at: nullableString,
  },
} as const;

interface SessionRow {
  id: string;
  status: string;
  required_steps: string[];
  expires_at: Date;
  environment: string;
  country: string;
  flow: string;
  tier: string;
  external_user_ref_enc: string | null;
  redirect_url: string | null;
  metadata_enc: string | null;
  steps: unknown[];
  verify_token_nonce: string | null;
  identity_id: string | null;
  decision: string | null;
  last_error: unknown;
  reverification_request_id: string | null;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
  decided_at: Date | null;
}

function sessionObject(row: SessionRow) {
  const open = row.status === 'created' || row.status === 'collecting';
  return {
    object: 'session',
    session_id: row.id,
    // The peer keeps the token itself in the nonce column (see the header: no derivation).
    ...(open && row.verify_token_nonce ? { verify_url: `${BASE_URL}/verify/${row.verify_token_nonce}` } : {}),
    status: row.status,
    required_steps: row.required_steps,
    expires_at: row.expires_at.toISOString(),
    environment: row.environment,
    country: row.country,
    flow: row.flow,
    tier: row.tier,
    external_user_reference: row.external_user_ref_enc,
    redirect_url: row.redirect_url,
    metadata: row.metadata_enc ? JSON.parse(row.metadata_enc) : {},
    steps: row.steps,
    identity_id: row.identity_id,
    decision: row.decision,
    last_error: row.last_error,
    reverification_request_id: row.reverification_request_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    submitted_at: row.submitted_at?.toISOString() ?? null,
    decided_at: row.decided_at?.toISOString() ?? null,
  };
}

function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Problem) {
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send({
      type: `${BASE_URL}/docs/problems/${problem.code}`,
      title: problem.code,
      status: problem.status,
      detail: problem.message,
      instance: request.url,
      code: problem.code,
    });
}

// Fastify's defaults would strip unknown fields and coerce "900" to 900; ours rejects both, and so does this.
const app = Fastify({
  logger: false,
  bodyLimit: 64 * 1024,
  ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
});

app.setErrorHandler((error: Error & { validation?: unknown; statusCode?: number }, request, reply) => {
  if (error instanceof Problem) return sendProblem(reply, request, error);
  if (error.validation)
    return sendProblem(reply, request, new Problem(400, 'invalid_parameter', error.message));
  if (error.statusCode && error.statusCode < 500) {
    return sendProblem(reply, request, new Problem(error.statusCode, 'invalid_request', error.message));
  }
  return sendProblem(reply, request, new Problem(500, 'internal_error', 'Something went wrong.'));
});
app.setNotFoundHandler((request, reply) =>
  sendProblem(
    reply,
    request,
    new Problem(404, 'route_not_found', `No route ${request.method} ${request.url}.`),
  ),
);

const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

app.post<{
  Body: {
    country: string;
    flow: string;
    tier: string;
    external_user_reference?: string;
    redirect_url?: string;
    metadata?: Record<string, unknown>;
    expires_in?: number;
    sandbox?: unknown;
  };
}>(
  '/v1/sessions',
  { schema: { body: createBody, response: { 201: sessionResponse } } },
  async (request, reply) => {
    const principal = await authenticate(request);
    const body = request.body;
    const id = `sess_${randomUUID().replaceAll('-', '')}`;
    const token = randomBytes(20).toString('base64url');
    const steps = requiredSteps(body.flow, body.tier);
    const now = new Date();
    const { rows } = await pool.query<SessionRow>(
      `insert into sessions (id, tenant_id, environment, status, country, flow, tier, external_user_ref_enc,
         redirect_url, metadata_enc, required_steps, steps, verify_token_hash, verify_token_nonce, sandbox,
         expires_at, created_at, updated_at)
       values ($1, $2, $3, 'created', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
       returning *`,
      [
        id,
        principal.tenantId,
        principal.environment,
        body.country,
        body.flow,
        body.tier,
        body.external_user_reference ?? null,
        body.redirect_url ?? null,
        body.metadata ? JSON.stringify(body.metadata) : null,
        JSON.stringify(steps),
        JSON.stringify(steps.map((step) => ({ step, status: 'pending', attempts_remaining: 3 }))),
        createHash('sha256').update(token).digest('hex'),
        token,
        body.sandbox ? JSON.stringify(body.sandbox) : null,
        new Date(now.getTime() + (body.expires_in ?? 86_400) * 1000),
        now,
      ],
    );
    return reply
      .code(201)
      .headers(HEADERS)
      .send(sessionObject(rows[0] as SessionRow));
  },
);

app.get<{ Params: { id: string } }>(
  '/v1/sessions/:id',
  {
    schema: {
      params: { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } },
      response: { 200: sessionResponse },
    },
  },
  async (request, reply) => {
    const principal = await authenticate(request);
    const { rows } = await pool.query<SessionRow>(
      'select * from sessions where id = $1 and tenant_id = $2 and environment = $3',
      [request.params.id, principal.tenantId, principal.environment],
    );
    const row = rows[0];
    if (!row) throw new Problem(404, 'resource_missing', 'No such session.');
    return reply.headers(HEADERS).send(sessionObject(row));
  },
);

await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`peer: http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
