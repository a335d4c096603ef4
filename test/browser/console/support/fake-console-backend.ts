/**
 * The console's `/v1` at the fetch seam: an in-memory tenant answering the endpoints the console calls,
 * with the shapes of server/http/routes/*.ts, the roles' capabilities of server/domain/capabilities.ts, cursor
 * pagination, and problem details. Every request is recorded, so tests can assert what was (not) sent.
 */
import type { Capability, Role, Schemas } from '../../../../server/web/console/api/console-api.ts';
import { capabilitiesOfRole, defaultPathOfRole, ROLES } from '../../../../server/domain/capabilities.ts';

type ApiEvent = Schemas['Event'];
type ApiKey = Schemas['ApiKey'];
type AuditEvent = Schemas['AuditEvent'];
type Delivery = Schemas['WebhookDelivery'];
type DocumentData = Schemas['DocumentData'];
type EvidenceUpload = Schemas['EvidenceUpload'];
type Identity = Schemas['Identity'];
type ReviewClaim = Schemas['ReviewClaim'];
type Session = Schemas['Session'];
type SessionResult = Schemas['SessionResult'];
type Stats = Schemas['Stats'];
type Tenant = Schemas['Tenant'];
type TenantUser = Schemas['TenantUser'];
type Watchlist = Schemas['Watchlist'];
type Webhook = Schemas['Webhook'];

export const PASSWORD = 'correct horse battery staple';
/** The one code the fake accepts from an authenticator app, at enrolment and at login. */
export const TOTP_CODE = '246810';
const TENANT_ID = 'ten_Fake0000000000000001';
const DAY = 86_400_000;

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
  /** The status the fake answered with. */
  status?: number;
}

type Handler = (request: RecordedRequest, params: string[], role: Role) => Response | Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Response {
  return new Response(
    JSON.stringify({
      type: `https://errors.test/${code}`,
      title: code,
      status,
      detail,
      code,
      request_id: 'req_fake',
      ...extra,
    }),
    { status, headers: { 'content-type': 'application/problem+json' } },
  );
}

/** Cursor pagination (API.md §1) over objects with an id field, in the order they are given. */
function page<T>(items: T[], idOf: (item: T) => string, query: URLSearchParams) {
  const limit = Math.min(100, Number(query.get('limit') ?? 20));
  const after = query.get('starting_after');
  const before = query.get('ending_before');
  let slice: T[];
  let hasMore: boolean;
  if (after) {
    const from = items.findIndex((item) => idOf(item) === after) + 1;
    slice = items.slice(from, from + limit);
    hasMore = from + limit < items.length;
  } else if (before) {
    const to = items.findIndex((item) => idOf(item) === before);
    const from = Math.max(0, to - limit);
    slice = items.slice(from, to);
    hasMore = from > 0;
  } else {
    slice = items.slice(0, limit);
    hasMore = items.length > limit;
  }
  return { object: 'list', data: slice, has_more: hasMore };
}

/**
 * The face-match check as the review now writes it, per session status: a session waiting for review is
 * in the `uncertain` zone (its thresholds nested, as issue #22 describes them), an approved one a `match`
 * (thresholds flat, as the server writes them); a rejected one stands for a session decided before checks
 * carried zones.
 */
function faceMatchCheck(status: string): SessionResult['checks'][number] {
  if (status === 'review_required') {
    return {
      type: 'face_match',
      status: 'failed',
      reason_codes: ['face_match_uncertain'],
      details: {
        score: 0.5712,
        zone: 'uncertain',
        zone_reason:
          'Unsure: the face is 0.5712 from the reference over 3 frames, between the match limit 0.55 and the mismatch limit 0.62; a person should compare them.',
        thresholds: { match: 0.55, mismatch: 0.62 },
        metric: 'euclidean',
        probes_compared: 3,
      },
    };
  }
  if (status === 'rejected') {
    return {
      type: 'face_match',
      status: 'passed',
      reason_codes: [],
      details: { distance: 0.31, threshold: 0.6 },
    };
  }
  return {
    type: 'face_match',
    status: 'passed',
    reason_codes: [],
    details: {
      score: 0.41,
      zone: 'match',
      zone_reason:
        'The face matches: it is 0.41 from the reference over 3 frames, within the match limit 0.55.',
      match_threshold: 0.55,
      mismatch_threshold: 0.62,
      metric: 'euclidean',
      probes_compared: 3,
    },
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function user(id: string, email: string, role: Role, status: TenantUser['status'] = 'active'): TenantUser {
  return {
    object: 'user',
    user_id: id,
    email,
    role,
    tenant_id: TENANT_ID,
    status,
    invitation_expires_at: status === 'invited' ? iso(Date.now() + 6 * DAY) : null,
    invited_by: null,
    created_at: iso(Date.now() - 40 * DAY),
    updated_at: iso(Date.now() - 40 * DAY),
  };
}

function session(
  id: string,
  status: Session['status'],
  ageMs: number,
  extra: Partial<Session> = {},
): Session {
  const created = Date.now() - ageMs;
  const decided = ['approved', 'rejected', 'review_required'].includes(status);
  return {
    object: 'session',
    session_id: id,
    status,
    required_steps: ['consent', 'id_document', 'liveness'],
    expires_at: iso(created + DAY),
    environment: 'sandbox',
    country: 'DEU',
    flow: 'user',
    tier: 'tier2',
    external_user_reference: `customer-${id.slice(-3)}`,
    redirect_url: null,
    metadata: { plan: 'gold' },
    steps: [
      { step: 'consent', status: 'completed', attempts_remaining: 3 },
      { step: 'id_document', status: 'completed', attempts_remaining: 2 },
      { step: 'liveness', status: 'completed', attempts_remaining: 3 },
    ],
    identity_id: status === 'approved' ? 'idn_Fake0000000000000001' : null,
    decision: decided ? status : null,
    last_error: null,
    reverification_request_id: null,
    created_at: iso(created),
    updated_at: iso(created + 60_000),
    submitted_at: decided ? iso(created + 120_000) : null,
    decided_at: decided ? iso(created + 180_000) : null,
    ...extra,
  };
}

/** A small PNG of a solid colour with a stripe: enough for an `<img>` to decode and lay out. */
async function pngOf(colour: string, width = 240, height = 150): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d')!;
  context.fillStyle = colour;
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#ffffff';
  context.fillRect(0, height / 2 - 5, width, 10);
  return canvas.convertToBlob({ type: 'image/png' });
}

/**
 * @example
 *   const backend = new FakeConsoleBackend();
 *   el.fetchImpl = backend.fetch;
 *   backend.signIn(tokens, 'viewer');
 */
export class FakeConsoleBackend {
  readonly requests: RecordedRequest[] = [];
  /** Tokens that still work, and whose they are. */
  readonly tokens = new Map<string, Role>();
  readonly users: TenantUser[] = [
    user('usr_Admin00000000000000001', 'admin@tenant.test', 'tenant_admin'),
    user('usr_Review0000000000000001', 'reviewer@tenant.test', 'reviewer'),
    user('usr_Develo0000000000000001', 'developer@tenant.test', 'developer'),
    user('usr_Viewer0000000000000001', 'viewer@tenant.test', 'viewer'),
    user('usr_Invite0000000000000001', 'new@tenant.test', 'reviewer', 'invited'),
  ];
  readonly sessions: Session[] = [
    session('sess_Approved000000000001', 'approved', 2 * 3_600_000),
    session('sess_Review00000000000003', 'review_required', 3 * 3_600_000, { country: 'FRA' }),
    session('sess_Review00000000000002', 'review_required', 5 * 3_600_000, { tier: 'tier3' }),
    session('sess_Rejected000000000001', 'rejected', 8 * 3_600_000),
    session('sess_Review00000000000001', 'review_required', 26 * 3_600_000),
    session('sess_Collecting0000000001', 'collecting', 30 * 3_600_000, {
      verify_url: 'https://verify.test/verify/abc',
    }),
  ];
  readonly reviews: { id: string; decision: string; reason_codes?: string[]; note?: string }[] = [];
  /** Active review claims by session id (issue 25); a test may seed another reviewer's. */
  readonly claims = new Map<string, ReviewClaim>();
  /** What `GET /v1/sessions/:id/document-data` answers for a session; absent: no document (empty sources). */
  readonly documentData = new Map<string, DocumentData>();
  /** Reason codes per session (the latest decision's), for the `reason_code` filters. */
  readonly reasonCodes = new Map<string, string[]>([
    ['sess_Review00000000000001', ['face_match_uncertain']],
    ['sess_Review00000000000002', ['duplicate_identity']],
    ['sess_Review00000000000003', ['face_match_uncertain', 'watchlist_hit']],
  ]);
  /** The tenant's review target in minutes (`review_target_minutes`). */
  reviewTargetMinutes = 240;
  /** Lists only the sessions of the request's `x-environment` (off: every session, whatever it asks). */
  scopeSessionsByEnvironment = false;
  /** The checks a session's result carries, when a test wants others than the defaults below. */
  checksFor: ((session: Session) => SessionResult['checks']) | null = null;
  readonly webhooks: Webhook[] = [
    {
      object: 'webhook',
      webhook_id: 'wh_Fake00000000000000001',
      url: 'https://tenant.test/hooks',
      events: ['session.approved', 'session.rejected'],
      status: 'active',
      environment: 'sandbox',
      description: 'Backend',
      disabled_reason: null,
      previous_secret_expires_at: null,
      created_at: iso(Date.now() - 10 * DAY),
      updated_at: iso(Date.now() - 10 * DAY),
    },
  ];
  readonly deliveries: Delivery[] = [
    {
      object: 'webhook_delivery',
      delivery_id: 'dlv_Fake00000000000000002',
      webhook_id: 'wh_Fake00000000000000001',
      event_id: 'evt_Fake00000000000000002',
      event_type: 'session.approved',
      status: 'failed',
      attempt_count: 2,
      next_attempt_at: null,
      last_attempt_at: iso(Date.now() - 3_000_000),
      last_response_status: 500,
      last_error_class: 'http_error',
      attempts: [
        {
          attempt: 1,
          status: 'failed',
          response_status: 500,
          duration_ms: 120,
          error_class: 'http_error',
          started_at: iso(Date.now() - 3_600_000),
        },
        {
          attempt: 2,
          status: 'failed',
          response_status: 500,
          duration_ms: 98,
          error_class: 'http_error',
          started_at: iso(Date.now() - 3_000_000),
        },
      ],
      created_at: iso(Date.now() - 3_600_000),
    },
    {
      object: 'webhook_delivery',
      delivery_id: 'dlv_Fake00000000000000001',
      webhook_id: 'wh_Fake00000000000000001',
      event_id: 'evt_Fake00000000000000001',
      event_type: 'session.rejected',
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
      last_attempt_at: iso(Date.now() - 8 * 3_600_000),
      last_response_status: 200,
      last_error_class: null,
      attempts: [
        {
          attempt: 1,
          status: 'succeeded',
          response_status: 200,
          duration_ms: 45,
          error_class: null,
          started_at: iso(Date.now() - 8 * 3_600_000),
        },
      ],
      created_at: iso(Date.now() - 8 * 3_600_000),
    },
  ];
  readonly events: ApiEvent[] = [
    {
      object: 'event',
      event_id: 'evt_Fake00000000000000002',
      type: 'session.approved',
      environment: 'sandbox',
      session_id: 'sess_Approved000000000001',
      identity_id: null,
      created_at: iso(Date.now() - 3_600_000),
      payload: { event: 'session.approved', session_id: 'sess_Approved000000000001' },
    },
    {
      object: 'event',
      event_id: 'evt_Fake00000000000000003',
      type: 'session.created',
      environment: 'sandbox',
      session_id: 'sess_Approved000000000001',
      identity_id: null,
      created_at: iso(Date.now() - 2 * 3_600_000),
      payload: { event: 'session.created', session_id: 'sess_Approved000000000001' },
    },
  ];
  readonly apiKeys: ApiKey[] = [
    {
      object: 'api_key',
      api_key_id: 'key_Fake00000000000000001',
      name: 'Backend',
      environment: 'sandbox',
      prefix: 'sk_sandbox_Ab3dE9xY',
      last4: 'q7Zp',
      created_at: iso(Date.now() - 20 * DAY),
      revoked_at: null,
      last_used_at: iso(Date.now() - 600_000),
    },
  ];
  readonly identities: Identity[] = [
    {
      object: 'identity',
      identity_id: 'idn_Fake0000000000000001',
      environment: 'sandbox',
      status: 'verified',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: 'customer-001',
      verified_at: iso(Date.now() - 2 * DAY),
      latest_session_id: 'sess_Approved000000000001',
      attributes: {
        first_name: 'Erika',
        last_name: 'Mustermann',
        date_of_birth: '1984-08-12',
        nationality: 'DEU',
        document: { type: 'id_card', issuing_country: 'DEU', number: 'T22000129', expiry_date: '2031-01-01' },
      },
      biometric_reference: true,
      personal_data_masked: false,
      created_at: iso(Date.now() - 2 * DAY),
      updated_at: iso(Date.now() - 2 * DAY),
    },
  ];
  /** The signed-in user's second factors, as `GET /v1/me/second-factors` shows them. */
  secondFactors = { totp: false, recoveryCodes: 0, requiredByTenant: false };
  /** E-mail addresses whose password step answers the second-factor challenge instead of a token. */
  readonly secondFactorEmails = new Set<string>();
  tenant: Tenant = {
    object: 'tenant',
    tenant_id: TENANT_ID,
    name: 'Acme Test',
    status: 'active',
    allowed_origins: ['https://shop.test'],
    branding: { primary_color: '#0a5f3f' },
    minimum_age: 18,
    document_authenticity: 'offline_checks',
    proof_of_address_max_age_days: 92,
    attempts_per_step: 3,
    require_second_factor: false,
    review_target_minutes: this.reviewTargetMinutes,
    created_at: iso(Date.now() - 100 * DAY),
    updated_at: iso(Date.now() - 100 * DAY),
  };
  watchlist: Watchlist = {
    object: 'watchlist',
    environment: 'sandbox',
    source: 'sample',
    entries: [],
    entry_count: 0,
    updated_at: null,
  };
  readonly audit: AuditEvent[] = [
    {
      object: 'audit_event',
      audit_event_id: 'aud_Fake00000000000000002',
      action: 'session.review_rejected',
      actor: { type: 'user', id: 'usr_Review0000000000000001' },
      target: { type: 'session', id: 'sess_Rejected000000000001' },
      environment: 'sandbox',
      request_id: 'req_abc',
      ip_prefix: '203.0.113.0/24',
      details: { reason_codes: ['document_tampered'] },
      created_at: iso(Date.now() - 7 * 3_600_000),
    },
    {
      object: 'audit_event',
      audit_event_id: 'aud_Fake00000000000000001',
      action: 'console.login',
      actor: { type: 'user', id: 'usr_Admin00000000000000001' },
      target: { type: 'user', id: 'usr_Admin00000000000000001' },
      environment: null,
      request_id: 'req_def',
      ip_prefix: '203.0.113.0/24',
      details: {},
      created_at: iso(Date.now() - 9 * 3_600_000),
    },
  ];
  readonly reverifications = new Map<string, Record<string, unknown>>();
  #images = new Map<string, Promise<Blob>>();
  #counter = 0;
  readonly #routes: [string, RegExp, Capability | null, Handler][] = [];

  constructor() {
    this.#define();
  }

  /** Puts a working token for `role` in the store the console reads, as a login would. */
  tokenFor(role: Role): string {
    const token = `tok_${role}_${++this.#counter}`;
    this.tokens.set(token, role);
    return token;
  }

  /** Every token stops working: the next call answers 401 `token_expired`. */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** Writes (non-GET) requests seen so far, as `METHOD /path`. */
  writes(): string[] {
    return this.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), location.origin);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const request: RecordedRequest = { method, path: url.pathname, query: url.searchParams, body, headers };
    this.requests.push(request);
    const response = await this.#answer(request, method, url);
    request.status = response.status;
    return response;
  };

  async #answer(request: RecordedRequest, method: string, url: URL): Promise<Response> {
    const { headers } = request;
    for (const [routeMethod, pattern, capability, handler] of this.#routes) {
      if (routeMethod !== method) continue;
      const match = pattern.exec(url.pathname);
      if (!match) continue;
      let role: Role = 'viewer';
      if (
        capability !== null ||
        !/^\/v1\/console\/(login|login\/second-factor|accept-invitation)$/.test(url.pathname)
      ) {
        const token = headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
        const found = this.tokens.get(token);
        if (!found) return problem(401, 'token_expired', 'The access token has expired.');
        role = found;
        if (capability && !capabilitiesOfRole(role).includes(capability)) {
          return problem(403, 'insufficient_capability', `This needs ${capability}.`);
        }
      }
      return handler(request, match.slice(1), role);
    }
    return problem(404, 'route_not_found', `No route ${method} ${url.pathname}.`);
  }

  #on(method: string, path: string, capability: Capability | null, handler: Handler): void {
    const pattern = new RegExp(`^${path.replace(/:\w+/g, '([^/]+)')}$`);
    this.#routes.push([method, pattern, capability, handler]);
  }

  #userOf(role: Role): TenantUser {
    return this.users.find((u) => u.role === role && u.status === 'active')!;
  }

  #image(id: string, colour: string): Promise<Blob> {
    let image = this.#images.get(id);
    if (!image) {
      image = pngOf(colour);
      this.#images.set(id, image);
    }
    return image;
  }

  /** The search (`q`: an id or a reference exactly) and `reason_code` filters of issue 25. */
  #matches(session: Session, query: URLSearchParams): boolean {
    const q = query.get('q')?.trim();
    if (q && session.session_id !== q && session.external_user_reference !== q) return false;
    const reasons = query.getAll('reason_code');
    const own = this.reasonCodes.get(session.session_id) ?? [];
    return reasons.length === 0 || reasons.some((code) => own.includes(code));
  }

  /** The sessions an export or list of these filters holds, newest first. */
  #filtered(query: URLSearchParams): Session[] {
    const statuses = query.getAll('status');
    return this.sessions.filter(
      (s) => (statuses.length === 0 || statuses.includes(s.status)) && this.#matches(s, query),
    );
  }

  #audited(action: string, role: Role, sessionId: string, details: Record<string, unknown>): void {
    this.audit.unshift({
      object: 'audit_event',
      audit_event_id: `aud_${++this.#counter}`,
      action: action as AuditEvent['action'],
      actor: { type: 'user', id: this.#userOf(role).user_id },
      target: { type: 'session', id: sessionId },
      environment: 'sandbox',
      request_id: null,
      ip_prefix: null,
      details,
      created_at: iso(Date.now()),
    });
  }

  /** 409 `review_claimed` when someone other than `role`'s user holds an active claim on the session. */
  #claimedByOther(id: string, role: Role): Response | null {
    const claim = this.claims.get(id);
    const active = claim && (claim.expires_at === null || Date.parse(claim.expires_at) > Date.now());
    if (!claim || !active || claim.reviewer_id === this.#userOf(role).user_id) return null;
    return problem(409, 'review_claimed', 'The session is claimed by another reviewer.', {
      claimed_by: claim.reviewer_id,
      claimed_until: claim.expires_at,
    });
  }

  /** The review queue, the assignment and the CSV export of issue 25. */
  #defineQueue(): void {
    this.#on('GET', '/v1/review-queue', 'sessions:review', ({ query }, _p, role) => {
      const me = this.#userOf(role).user_id;
      const claimWanted = query.get('claim');
      const items = [...this.#filtered(query)]
        .filter((s) => s.status === 'review_required')
        .reverse()
        .map((s) => {
          const claim = this.claims.get(s.session_id) ?? null;
          const waitingSince = s.decided_at ?? s.created_at;
          const waiting = Math.floor((Date.now() - Date.parse(waitingSince)) / 60_000);
          return {
            object: 'review_queue_item',
            session_id: s.session_id,
            country: s.country,
            flow: s.flow,
            tier: s.tier,
            external_user_reference: s.external_user_reference,
            created_at: s.created_at,
            submitted_at: s.submitted_at,
            waiting_since: waitingSince,
            waiting_minutes: waiting,
            target_minutes: this.reviewTargetMinutes,
            over_target: waiting > this.reviewTargetMinutes,
            reason_codes: this.reasonCodes.get(s.session_id) ?? [],
            claim,
          };
        })
        .filter(
          (item) =>
            !claimWanted ||
            (claimWanted === 'mine' && item.claim?.reviewer_id === me) ||
            (claimWanted === 'unclaimed' && item.claim === null) ||
            (claimWanted === 'others' && item.claim !== null && item.claim.reviewer_id !== me),
        );
      return json({
        ...page(items, (item) => item.session_id, query),
        target_minutes: this.reviewTargetMinutes,
      });
    });
    this.#on('PUT', '/v1/sessions/:id/assignment', 'sessions:assign', ({ body }, [id], role) => {
      const userId = (body as { user_id?: string }).user_id;
      const user = this.users.find((u) => u.user_id === userId && u.status === 'active');
      if (!user || !['reviewer', 'tenant_admin'].includes(user.role)) {
        return problem(400, 'invalid_parameter', 'user_id cannot review.', { param: 'user_id' });
      }
      const previous = this.claims.get(id!);
      const claim: ReviewClaim = {
        object: 'review_claim',
        session_id: id!,
        reviewer_id: user.user_id,
        claimed_at: iso(Date.now()),
        expires_at: null,
        assigned_by: this.#userOf(role).user_id,
      };
      this.claims.set(id!, claim);
      this.#audited('session.assigned', role, id!, {
        reviewer_id: user.user_id,
        previous_reviewer_id: previous?.reviewer_id ?? null,
      });
      return json(claim);
    });
    this.#on('GET', '/v1/exports/sessions', 'sessions:read', ({ query }, _p, role) => {
      const personal = capabilitiesOfRole(role).includes('identities:read_pii');
      const header = ['session_id', 'status', 'environment', 'country', 'reason_codes'];
      if (personal) header.push('external_user_reference');
      const listed = this.#filtered(query);
      const rows = (query.get('order') === 'asc' ? listed.reverse() : listed).map((s) => {
        const row = [
          s.session_id,
          s.status,
          s.environment,
          s.country,
          (this.reasonCodes.get(s.session_id) ?? []).join(';'),
        ];
        if (personal) row.push(s.external_user_reference ?? '');
        return row.join(',');
      });
      this.#audited('session.exported', role, 'export', { rows: rows.length, personal_fields: personal });
      return new Response([header.join(','), ...rows].join('\r\n') + '\r\n', {
        headers: { 'content-type': 'text/csv; charset=utf-8' },
      });
    });
  }

  /** The claims of issue 25 as docs/API.md describes them: 30 minutes, take-over audited. */
  #defineClaims(): void {
    const claimFor = (id: string, role: Role): ReviewClaim => ({
      object: 'review_claim',
      session_id: id,
      reviewer_id: this.#userOf(role).user_id,
      claimed_at: iso(Date.now()),
      expires_at: iso(Date.now() + 30 * 60_000),
      assigned_by: null,
    });
    const reviewable = (id: string): Response | null => {
      const found = this.sessions.find((s) => s.session_id === id);
      if (!found) return problem(404, 'resource_missing', `No session ${id}.`);
      return found.status === 'review_required'
        ? null
        : problem(409, 'invalid_state_transition', `This one is \`${found.status}\`.`);
    };
    this.#on('POST', '/v1/sessions/:id/claim', 'sessions:review', (_r, [id], role) => {
      const refused = reviewable(id!) ?? this.#claimedByOther(id!, role);
      if (refused) return refused;
      const claim = claimFor(id!, role);
      this.claims.set(id!, claim);
      return json(claim);
    });
    this.#on('POST', '/v1/sessions/:id/claim/take-over', 'sessions:review', (_r, [id], role) => {
      const refused = reviewable(id!);
      if (refused) return refused;
      const previous = this.claims.get(id!);
      const claim = claimFor(id!, role);
      this.claims.set(id!, claim);
      if (previous && previous.reviewer_id !== claim.reviewer_id) {
        this.#audited('session.claim_taken_over', role, id!, { previous_reviewer_id: previous.reviewer_id });
      }
      return json(claim);
    });
    this.#on('DELETE', '/v1/sessions/:id/claim', 'sessions:review', (_r, [id], role) => {
      const refused = this.#claimedByOther(id!, role);
      if (refused) return refused;
      this.claims.delete(id!);
      return new Response(null, { status: 204 });
    });
  }

  #define(): void {
    this.#on('POST', '/v1/console/login', null, ({ body }) => {
      const { email, password } = body as { email: string; password: string };
      const found = this.users.find((u) => u.email === email && u.status === 'active');
      if (!found || password !== PASSWORD) return problem(401, 'invalid_credentials', 'Incorrect.');
      if (this.secondFactorEmails.has(email)) {
        return json({
          second_factor_required: true,
          challenge_token: `challenge_${found.role}`,
          expires_in: 300,
          methods: ['totp', 'recovery_code'],
          passkey_options: null,
        });
      }
      const token = this.tokenFor(found.role);
      return json({
        access_token: token,
        token_type: 'Bearer',
        expires_in: 3600,
        user: found,
        capabilities: [...capabilitiesOfRole(found.role)],
        default_path: defaultPathOfRole(found.role),
      });
    });
    this.#on('POST', '/v1/console/login/second-factor', null, ({ body }) => {
      const { challenge_token: challenge, totp_code: code } = body as {
        challenge_token: string;
        totp_code?: string;
      };
      const role = challenge.replace(/^challenge_/, '') as Role;
      if (!(ROLES as readonly string[]).includes(role)) {
        return problem(410, 'login_challenge_expired', 'Expired.');
      }
      if (code !== TOTP_CODE) return problem(401, 'invalid_second_factor', 'The code is incorrect.');
      return json({
        access_token: this.tokenFor(role),
        token_type: 'Bearer',
        expires_in: 3600,
        user: this.#userOf(role),
        capabilities: [...capabilitiesOfRole(role)],
        default_path: defaultPathOfRole(role),
      });
    });
    this.#on('GET', '/v1/me/second-factors', null, () =>
      json({
        object: 'second_factors',
        totp: this.secondFactors.totp,
        passkeys: [],
        recovery_codes_remaining: this.secondFactors.recoveryCodes,
        required_by_tenant: this.secondFactors.requiredByTenant,
      }),
    );
    this.#on('POST', '/v1/me/second-factors/totp', null, (_request, _params, role) => {
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const account = encodeURIComponent(this.#userOf(role).email);
      return json(
        {
          object: 'totp_enrolment',
          enrolment_id: 'sfc_FakeEnrolment0000001',
          secret,
          otpauth_uri: `otpauth://totp/id-verify:${account}?secret=${secret}&issuer=id-verify&algorithm=SHA1&digits=6&period=30`,
          expires_in: 600,
        },
        201,
      );
    });
    this.#on('POST', '/v1/me/second-factors/totp/confirm', null, ({ body, headers }, _params, role) => {
      if ((body as { code?: string }).code !== TOTP_CODE) {
        return problem(401, 'invalid_second_factor', 'The code is incorrect.');
      }
      this.secondFactors = { ...this.secondFactors, totp: true, recoveryCodes: 10 };
      const recovery = [...'ABCDEFGHJK'].map((letter) => `${letter}2345-6789${letter}`);
      // As the server does for a password-only session: the token is exchanged for one with the factor.
      this.tokens.delete(headers.get('authorization')?.replace(/^Bearer /, '') ?? '');
      const login = {
        access_token: this.tokenFor(role),
        token_type: 'Bearer',
        expires_in: 3600,
        user: this.#userOf(role),
        capabilities: [...capabilitiesOfRole(role)],
        default_path: defaultPathOfRole(role),
      };
      return json({ object: 'totp_enrolled', recovery_codes: recovery, login });
    });
    this.#on('POST', '/v1/console/logout', null, ({ headers }) => {
      this.tokens.delete(headers.get('authorization')?.replace(/^Bearer /, '') ?? '');
      return json({ object: 'logout', revoked: true });
    });
    this.#on('POST', '/v1/console/accept-invitation', null, ({ body }) => {
      const { invitation_token: token } = body as { invitation_token: string };
      if (token !== 'inv_Valid') return problem(404, 'resource_missing', 'No such invitation.');
      const invited = this.users.find((u) => u.status === 'invited')!;
      invited.status = 'active';
      return json(invited);
    });
    this.#on('GET', '/v1/me', null, ({ headers }, _params, role) => {
      const me = this.#userOf(role);
      return json({
        object: 'me',
        user: me,
        tenant: {
          object: 'tenant',
          tenant_id: TENANT_ID,
          name: this.tenant.name,
          status: this.tenant.status,
        },
        capabilities: [...capabilitiesOfRole(role)],
        default_path: defaultPathOfRole(role),
        environment: headers.get('x-environment') ?? 'production',
      });
    });
    this.#on('GET', '/v1/stats', 'sessions:read', ({ headers }) => {
      const perDay = Array.from({ length: 30 }, (_, index) => {
        const created = (index * 7) % 11;
        return {
          date: new Date(Date.now() - (29 - index) * DAY).toISOString().slice(0, 10),
          created,
          approved: Math.floor(created * 0.6),
          rejected: Math.floor(created * 0.2),
          review_required: index === 29 ? 3 : 0,
        };
      });
      const stats: Stats = {
        object: 'stats',
        environment: (headers.get('x-environment') ?? 'production') as Stats['environment'],
        days: 30,
        from: iso(Date.now() - 29 * DAY),
        to: iso(Date.now()),
        sessions: {
          total: 150,
          by_status: {
            created: 4,
            collecting: 6,
            processing: 1,
            review_required: 3,
            approved: 100,
            rejected: 30,
            expired: 5,
            cancelled: 1,
          },
        },
        approval_rate: 100 / 130,
        median_seconds_to_decision: 95,
        per_day: perDay,
        review_queue: {
          length: 3,
          oldest_since: iso(Date.now() - 26 * 3_600_000),
          oldest_age_seconds: 26 * 3600,
        },
      };
      return json(stats);
    });
    this.#on('GET', '/v1/sessions', 'sessions:read', ({ query, headers }) => {
      const statuses = query.getAll('status');
      const environment = headers.get('x-environment');
      const filtered = this.sessions.filter(
        (s) =>
          (!this.scopeSessionsByEnvironment || s.environment === environment) &&
          this.#matches(s, query) &&
          (statuses.length === 0 || statuses.includes(s.status)) &&
          (!query.get('flow') || s.flow === query.get('flow')) &&
          (!query.get('tier') || s.tier === query.get('tier')) &&
          (!query.get('country') || s.country === query.get('country')) &&
          (!query.get('external_user_reference') ||
            s.external_user_reference === query.get('external_user_reference')),
      );
      // `this.sessions` is newest first, as the API lists by default; `order=asc` reads it from the other end.
      const ordered = query.get('order') === 'asc' ? [...filtered].reverse() : filtered;
      return json(page(ordered, (s) => s.session_id, query));
    });
    this.#on('GET', '/v1/sessions/:id', 'sessions:read', (_r, [id]) => {
      const found = this.sessions.find((s) => s.session_id === id);
      return found ? json(found) : problem(404, 'resource_missing', `No session ${id}.`);
    });
    this.#on('DELETE', '/v1/sessions/:id', 'sessions:cancel', (_r, [id]) => {
      const found = this.sessions.find((s) => s.session_id === id);
      if (!found) return problem(404, 'resource_missing', `No session ${id}.`);
      found.status = 'cancelled';
      return json(found);
    });
    this.#on('GET', '/v1/sessions/:id/result', 'sessions:read', (_r, [id]) => {
      const found = this.sessions.find((s) => s.session_id === id);
      if (!found) return problem(404, 'resource_missing', `No session ${id}.`);
      const review = this.reviews.find((r) => r.id === id);
      const result: SessionResult = {
        object: 'session_result',
        session_id: found.session_id,
        status: found.status,
        decision: (found.decision as SessionResult['decision']) ?? null,
        decided_at: found.decided_at,
        decided_by: review ? 'reviewer' : found.decided_at ? 'automated' : null,
        identity_id: found.identity_id,
        retry_allowed: false,
        reasons:
          found.status === 'rejected'
            ? [{ code: 'document_tampered', message: 'Tampered.', user_message: 'x' }]
            : [],
        checks: this.checksFor?.(found) ?? [
          {
            type: 'document_quality',
            status: 'passed',
            reason_codes: [],
            details: { sharpness: 0.82, glare_ratio: 0.01 },
          },
          {
            type: 'document_authenticity',
            status: found.status === 'review_required' ? 'inconclusive' : 'passed',
            reason_codes: [],
            details: { mrz_check_digits: true, method: 'offline_checks' },
          },
          faceMatchCheck(found.status),
          {
            type: 'liveness',
            status: found.status === 'rejected' ? 'failed' : 'passed',
            reason_codes: found.status === 'rejected' ? ['liveness_failed'] : [],
            // A rejected session stands for one decided before checks carried zones.
            details:
              found.status === 'rejected'
                ? { frames: 3, actions_matched: 3 }
                : {
                    zone: 'live',
                    zone_reason:
                      'Every prompted action was performed: turn_left performed (yaw -24.1), smile performed (smile 0.91).',
                    frames: 3,
                    actions_matched: 3,
                  },
          },
        ],
      };
      return json(result);
    });
    this.#on('GET', '/v1/sessions/:id/evidence', 'sessions:review', (_r, [id]) => {
      const uploads: EvidenceUpload[] = [
        { kind: 'document', side: 'front', frame_index: null, step: 'id_document' },
        { kind: 'document', side: 'back', frame_index: null, step: 'id_document' },
        { kind: 'liveness_frame', side: null, frame_index: 0, step: 'liveness' },
      ].map((upload, index) => ({
        object: 'upload',
        upload_id: `upl_${id!.slice(5, 20)}${index}`,
        session_id: id!,
        kind: upload.kind as EvidenceUpload['kind'],
        step: upload.step,
        document_type: upload.kind === 'document' ? 'id_card' : null,
        side: upload.side as EvidenceUpload['side'],
        issuing_country: upload.kind === 'document' ? 'DEU' : null,
        liveness_challenge_id: upload.kind === 'liveness_frame' ? 'chl_Fake0000000000000001' : null,
        frame_index: upload.frame_index,
        content_type: 'image/png',
        byte_size: 2048,
        width: 240,
        height: 150,
        quality: {
          ok: index !== 1,
          issues: index === 1 ? ['glare'] : [],
          sharpness: 0.8,
          glare_ratio: index === 1 ? 0.2 : 0,
          brightness: 0.5,
        },
        created_at: iso(Date.now() - 3_600_000),
      }));
      return json({ object: 'list', data: uploads, has_more: false });
    });
    this.#on('GET', '/v1/sessions/:id/evidence/:upload', 'sessions:review', async (_r, [, upload]) => {
      const blob = await this.#image(upload!, upload!.endsWith('2') ? '#7a4b2a' : '#2a4b7a');
      return new Response(blob, { headers: { 'content-type': 'image/png', 'cache-control': 'no-store' } });
    });
    this.#defineClaims();
    this.#defineQueue();
    this.#on('GET', '/v1/sessions/:id/document-data', 'sessions:review', (_r, [id], role) => {
      if (!capabilitiesOfRole(role).includes('identities:read_pii')) {
        return problem(403, 'insufficient_capability', 'This needs identities:read_pii.');
      }
      const data = this.documentData.get(id!);
      if (!data) {
        // As the server: a session without an identity document answers an empty comparison, unaudited.
        if (!this.sessions.some((s) => s.session_id === id)) {
          return problem(404, 'resource_missing', `No session ${id}.`);
        }
        return json({
          object: 'document_data',
          session_id: id,
          document_type: null,
          issuing_country: null,
          fields: [
            'first_name',
            'last_name',
            'date_of_birth',
            'document_number',
            'expiry_date',
            'nationality',
          ],
          sources: [],
          disagreements: [],
        });
      }
      this.#audited('session.personal_data_viewed', role, id!, {});
      return json(data);
    });
    this.#on('POST', '/v1/sessions/:id/review', 'sessions:review', ({ body }, [id], role) => {
      const found = this.sessions.find((s) => s.session_id === id);
      if (!found) return problem(404, 'resource_missing', `No session ${id}.`);
      const refused = this.#claimedByOther(id!, role);
      if (refused) return refused;
      this.claims.delete(id!);
      if (found.status !== 'review_required') {
        return problem(409, 'invalid_state_transition', `This one is \`${found.status}\`.`, {
          current_status: found.status,
        });
      }
      const review = body as { decision: 'approve' | 'reject'; reason_codes?: string[]; note?: string };
      this.reviews.push({ id: id!, ...review });
      found.status = review.decision === 'approve' ? 'approved' : 'rejected';
      found.decision = found.status;
      found.decided_at = iso(Date.now());
      this.audit.unshift({
        object: 'audit_event',
        audit_event_id: `aud_${++this.#counter}`,
        action: review.decision === 'approve' ? 'session.review_approved' : 'session.review_rejected',
        actor: { type: 'user', id: this.#userOf(role).user_id },
        target: { type: 'session', id: id! },
        environment: 'sandbox',
        request_id: null,
        ip_prefix: null,
        details: {},
        created_at: iso(Date.now()),
      });
      return json(found);
    });
    this.#on('GET', '/v1/events', 'webhooks:read', ({ query }) => {
      const sessionId = query.get('session_id');
      return json(
        page(
          this.events.filter((e) => !sessionId || e.session_id === sessionId),
          (e) => e.event_id,
          query,
        ),
      );
    });
    this.#on('GET', '/v1/webhooks', 'webhooks:read', ({ query }) =>
      json(page(this.webhooks, (w) => w.webhook_id, query)),
    );
    this.#on('POST', '/v1/webhooks', 'webhooks:write', ({ body }) => {
      const input = body as { url: string; events: string[]; description?: string };
      const created: Webhook = {
        ...this.webhooks[0]!,
        webhook_id: `wh_New${++this.#counter}`,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        status: 'active',
        created_at: iso(Date.now()),
      };
      this.webhooks.unshift(created);
      return json({ ...created, secret: 'whsec_TESTSECRETtestsecretTESTSECRETtestsecret000=' }, 201);
    });
    this.#on('GET', '/v1/webhooks/:id', 'webhooks:read', (_r, [id]) => {
      const found = this.webhooks.find((w) => w.webhook_id === id);
      return found ? json(found) : problem(404, 'resource_missing', `No webhook ${id}.`);
    });
    this.#on('PATCH', '/v1/webhooks/:id', 'webhooks:write', ({ body }, [id]) => {
      const found = this.webhooks.find((w) => w.webhook_id === id);
      if (!found) return problem(404, 'resource_missing', `No webhook ${id}.`);
      Object.assign(found, body);
      return json(found);
    });
    this.#on('POST', '/v1/webhooks/:id/rotate-secret', 'webhooks:write', (_r, [id]) => {
      const found = this.webhooks.find((w) => w.webhook_id === id);
      if (!found) return problem(404, 'resource_missing', `No webhook ${id}.`);
      found.previous_secret_expires_at = iso(Date.now() + DAY);
      return json({ ...found, secret: 'whsec_ROTATEDrotatedROTATEDrotatedROTATED0000=' });
    });
    this.#on('POST', '/v1/webhooks/:id/test', 'webhooks:write', () =>
      json({
        object: 'webhook_test',
        delivery_id: 'dlv_test',
        event_id: 'evt_test',
        delivered: true,
        status_class: '2xx',
      }),
    );
    this.#on('GET', '/v1/webhooks/:id/deliveries', 'webhooks:read', ({ query }, [id]) => {
      const eventId = query.get('event_id');
      return json(
        page(
          this.deliveries.filter((d) => d.webhook_id === id && (!eventId || d.event_id === eventId)),
          (d) => d.delivery_id,
          query,
        ),
      );
    });
    this.#on(
      'POST',
      '/v1/webhooks/:id/deliveries/:delivery/retry',
      'webhooks:write',
      (_r, [, deliveryId]) => {
        const found = this.deliveries.find((d) => d.delivery_id === deliveryId);
        if (!found) return problem(404, 'resource_missing', 'No delivery.');
        found.status = 'pending';
        found.next_attempt_at = iso(Date.now());
        return json(found);
      },
    );
    this.#on('GET', '/v1/api-keys', 'api_keys:write', () =>
      json({ object: 'list', data: this.apiKeys, has_more: false }),
    );
    this.#on('POST', '/v1/api-keys', 'api_keys:write', ({ body }, _p, role) => {
      const input = body as { name: string; environment: 'sandbox' | 'production' };
      if (input.environment === 'production' && role !== 'tenant_admin') {
        return problem(403, 'insufficient_capability', 'Only a tenant admin may create production keys.');
      }
      const created: ApiKey = {
        ...this.apiKeys[0]!,
        api_key_id: `key_New${++this.#counter}`,
        name: input.name,
        environment: input.environment,
        prefix: input.environment === 'sandbox' ? 'sk_sandbox_Zz9yX8wV' : 'sk_live_Zz9yX8wV',
        last_used_at: null,
        created_at: iso(Date.now()),
      };
      this.apiKeys.unshift(created);
      return json({ ...created, secret: `${created.prefix}SECRETsecretSECRET` }, 201);
    });
    this.#on('DELETE', '/v1/api-keys/:id', 'api_keys:write', (_r, [id]) => {
      const found = this.apiKeys.find((k) => k.api_key_id === id);
      if (!found) return problem(404, 'resource_missing', 'No key.');
      found.revoked_at = iso(Date.now());
      return json(found);
    });
    this.#on('GET', '/v1/identities', 'identities:read', ({ query }, _p, role) =>
      json(
        page(
          this.identities.map((i) => this.#masked(i, role)),
          (i) => i.identity_id,
          query,
        ),
      ),
    );
    this.#on('GET', '/v1/identities/:id', 'identities:read', (_r, [id], role) => {
      const found = this.identities.find((i) => i.identity_id === id);
      return found ? json(this.#masked(found, role)) : problem(404, 'resource_missing', `No identity ${id}.`);
    });
    this.#on('GET', '/v1/identities/:id/reverification-request', 'identities:read', (_r, [id]) => {
      const open = this.reverifications.get(id!);
      return open ? json(open) : problem(404, 'no_reverification_request', 'None open.');
    });
    this.#on(
      'POST',
      '/v1/identities/:id/reverification-requests',
      'reverifications:create',
      ({ body }, [id]) => {
        const input = body as { reason: string; reason_code?: string; mode?: 'full' | 'biometric' };
        if (this.reverifications.has(id!)) {
          return problem(409, 'reverification_already_pending', 'One is open.', { existing_id: 'rvr_x' });
        }
        const created = {
          object: 'reverification_request',
          reverification_request_id: 'rvr_Fake0000000000000001',
          identity_id: id,
          reason: input.reason,
          reason_code: input.reason_code ?? 'other',
          mode: input.mode ?? 'full',
          status: 'pending',
          session_id: 'sess_Reverify00000000001',
          verify_url: 'https://verify.test/verify/REVERIFYtoken000000001',
          expires_at: iso(Date.now() + DAY),
          created_at: iso(Date.now()),
        };
        this.reverifications.set(id!, created);
        return json(created, 201);
      },
    );
    this.#on('GET', '/v1/tenant', null, () => json(this.tenant));
    this.#on('PATCH', '/v1/tenant', 'tenant:write', ({ body }) => {
      this.tenant = { ...this.tenant, ...(body as Partial<Tenant>) };
      return json(this.tenant);
    });
    this.#on('GET', '/v1/watchlist', 'watchlist:read', () => json(this.watchlist));
    this.#on('PUT', '/v1/watchlist', 'watchlist:write', ({ body }) => {
      const entries = (body as { entries: Watchlist['entries'] }).entries;
      this.watchlist = {
        ...this.watchlist,
        source: 'tenant',
        entries,
        entry_count: entries.length,
        updated_at: iso(Date.now()),
      };
      return json(this.watchlist);
    });
    this.#on('GET', '/v1/users', 'users:write', ({ query }) =>
      json(page(this.users, (u) => u.user_id, query)),
    );
    this.#on('GET', '/v1/users/:id', 'users:write', (_r, [id]) => {
      const found = this.users.find((u) => u.user_id === id);
      return found ? json(found) : problem(404, 'resource_missing', 'No user.');
    });
    this.#on('POST', '/v1/users', 'users:write', ({ body }) => {
      const input = body as { email: string; role: Role };
      if (this.users.some((u) => u.email === input.email)) {
        return problem(409, 'email_in_use', 'This e-mail address already belongs to a console user.');
      }
      const created = user(`usr_New${++this.#counter}`, input.email, input.role, 'invited');
      this.users.unshift(created);
      return json({ ...created, invitation_token: 'inv_NEWtokenNEWtoken' }, 201);
    });
    this.#on('POST', '/v1/users/:id/invitation', 'users:write', (_r, [id]) => {
      const found = this.users.find((u) => u.user_id === id && u.status === 'invited');
      return found
        ? json({ ...found, invitation_token: 'inv_REISSUEDtoken' })
        : problem(404, 'resource_missing', 'No open invitation.');
    });
    this.#on('PATCH', '/v1/users/:id', 'users:write', ({ body }, [id]) => {
      const found = this.users.find((u) => u.user_id === id);
      if (!found) return problem(404, 'resource_missing', 'No user.');
      const change = body as { role?: Role; disabled?: boolean };
      if (change.role) found.role = change.role;
      if (change.disabled !== undefined) found.status = change.disabled ? 'disabled' : 'active';
      return json(found);
    });
    this.#on('GET', '/v1/audit-events', 'audit:read', ({ query }) => {
      const actions = query.getAll('action');
      const filtered = this.audit.filter(
        (a) =>
          (actions.length === 0 || actions.includes(a.action)) &&
          (!query.get('actor_id') || a.actor.id === query.get('actor_id')) &&
          (!query.get('target_type') || a.target?.type === query.get('target_type')) &&
          (!query.get('target_id') || a.target?.id === query.get('target_id')),
      );
      return json(page(filtered, (a) => a.audit_event_id, query));
    });
  }

  #masked(identity: Identity, role: Role): Identity {
    if (capabilitiesOfRole(role).includes('identities:read_pii')) return identity;
    const mask = (value: string | null | undefined) => (value ? `${value[0]}***` : null);
    const { attributes } = identity;
    return {
      ...identity,
      personal_data_masked: true,
      attributes: {
        first_name: mask(attributes.first_name),
        last_name: mask(attributes.last_name),
        date_of_birth: mask(attributes.date_of_birth),
        nationality: mask(attributes.nationality),
        document: {
          type: mask(attributes.document.type),
          issuing_country: mask(attributes.document.issuing_country),
          number: mask(attributes.document.number),
          expiry_date: mask(attributes.document.expiry_date),
        },
      },
    };
  }
}
