import type { components } from './openapi-types.ts';
import type { Query, RequestBody, Success } from './operation-types.ts';
import { type PagedList, pagedList } from './pagination.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
import {
  type RequestOptions,
  send,
  sendJson,
  type TransportConfig,
  type TransportRequest,
} from './transport.ts';

type Schemas = components['schemas'];

export interface IdVerifyClientOptions {
  /** `sk_sandbox_…` or `sk_live_…`; the key decides the environment. Keep it on your server. */
  apiKey: string;
  /** The server's origin, e.g. `https://idv.example.com` (a trailing `/v1` is tolerated). */
  baseUrl: string;
  /** Your own fetch (a proxy agent, a test double); default the global one. */
  fetch?: typeof fetch;
  /** Retries after the first attempt on 429, 5xx and lost answers; default 3, 0 turns them off. */
  maxRetries?: number;
  /** Back-off tuning; see retry-policy.ts. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** How the client waits between attempts; for tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** A piece of evidence as stored: the bytes and their type (JPEG, PNG or WebP). */
export interface EvidenceFile {
  contentType: string;
  bytes: Uint8Array;
}

const segment = encodeURIComponent;

/**
 * The typed client for a tenant's backend: every endpoint an API key may call (API.md §3–§8).
 * Console-only endpoints (login, users, API keys, audit log, tenant settings) take a console token and are
 * not here; neither are the end-user `/v1/verify/*` endpoints, which the widget calls.
 *
 * @example
 * const idv = createIdVerifyClient({ apiKey: process.env.IDV_API_KEY!, baseUrl: 'https://idv.example.com' });
 * const session = await idv.sessions.create({ external_user_reference: 'user_42', country: 'DEU' });
 */
export function createIdVerifyClient(options: IdVerifyClientOptions) {
  if (!options.apiKey) throw new TypeError('createIdVerifyClient needs an `apiKey`.');
  const config: TransportConfig = {
    apiKey: options.apiKey,
    // Kept with its path, so a server behind a path prefix works; `/v1` is part of every method's path.
    baseUrl: new URL(options.baseUrl).toString().replace(/\/+$/, '').replace(/\/v1$/, ''),
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    retry: {
      ...DEFAULT_RETRY_POLICY,
      ...options.retry,
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    },
    timeoutMs: options.timeoutMs ?? 30_000,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
  const call = <T>(request: TransportRequest) => sendJson<T>(config, request);
  const post = <T>(path: string, body: unknown, requestOptions: RequestOptions = {}) =>
    call<T>({ method: 'POST', path, body, idempotent: true, ...requestOptions });
  const list = <Item, Q extends object>(
    path: string,
    query: Q,
    idOf: (item: Item) => string,
  ): PagedList<Item> =>
    pagedList(query, (page) => call({ method: 'GET', path, query: page as Record<string, never> }), idOf);

  return {
    sessions: {
      /** `POST /v1/sessions`: a new session and its `verify_url` for the end-user. */
      create: (body: RequestBody<'createSession'>, requestOptions?: RequestOptions) =>
        post<Success<'createSession'>>('/v1/sessions', body, requestOptions),
      /** `GET /v1/sessions/:id` */
      get: (id: string) =>
        call<Success<'getSession'>>({ method: 'GET', path: `/v1/sessions/${segment(id)}` }),
      /** `GET /v1/sessions`: newest first, filtered by `status`, `external_user_reference`, … */
      list: (query: Query<'listSessions'> = {}) =>
        list<Schemas['Session'], Query<'listSessions'>>('/v1/sessions', query, (item) => item.session_id),
      /** `DELETE /v1/sessions/:id`: cancels a session that is not decided yet. */
      cancel: (id: string) =>
        call<Success<'cancelSession'>>({ method: 'DELETE', path: `/v1/sessions/${segment(id)}` }),
      /** `POST /v1/sessions/:id/submit`: submits a session whose steps are complete. */
      submit: (id: string, requestOptions?: RequestOptions) =>
        post<Success<'submitSession'>>(`/v1/sessions/${segment(id)}/submit`, undefined, requestOptions),
      /** `GET /v1/sessions/:id/result`: the decision, its reasons and checks. */
      result: (id: string) =>
        call<Success<'getSessionResult'>>({ method: 'GET', path: `/v1/sessions/${segment(id)}/result` }),
      /** `POST /v1/sessions/:id/verify-url`: a fresh `verify_url` (the old one stops working). */
      refreshVerifyUrl: (id: string, requestOptions?: RequestOptions) =>
        post<Success<'refreshVerifyUrl'>>(
          `/v1/sessions/${segment(id)}/verify-url`,
          undefined,
          requestOptions,
        ),
      /** `POST /v1/sessions/:id/review`: decides a `review_required` session. */
      review: (id: string, body: RequestBody<'reviewSession'>, requestOptions?: RequestOptions) =>
        post<Success<'reviewSession'>>(`/v1/sessions/${segment(id)}/review`, body, requestOptions),
      /**
       * `GET /v1/exports/sessions`: the sessions `list` would give for the same filters, with their latest
       * decision, as CSV text (at most 10,000; personal columns only with `identities:read_pii`). Audited.
       */
      export: async (query: Query<'exportSessions'> = {}): Promise<string> => {
        const response = await send(config, {
          method: 'GET',
          path: '/v1/exports/sessions',
          query: query as Record<string, never>,
        });
        return response.text();
      },
      /**
       * `GET /v1/sessions/:id/document-data`: the typed details, MRZ and barcode field by field, with the
       * fields they disagree on (personal data: needs `identities:read_pii`; every read is audited).
       */
      documentData: (id: string) =>
        call<Success<'getSessionDocumentData'>>({
          method: 'GET',
          path: `/v1/sessions/${segment(id)}/document-data`,
        }),
      /** `PUT /v1/sessions/:id/assignment`: gives a session in review to a reviewer (`user_id`). */
      assign: (id: string, body: RequestBody<'assignSession'>) =>
        call<Success<'assignSession'>>({
          method: 'PUT',
          path: `/v1/sessions/${segment(id)}/assignment`,
          body,
        }),
      claim: {
        /** `GET /v1/sessions/:id/claim`: who works on a session in review (404 when nobody). */
        get: (id: string) =>
          call<Success<'getReviewClaim'>>({ method: 'GET', path: `/v1/sessions/${segment(id)}/claim` }),
        /** `DELETE /v1/sessions/:id/claim`: ends whoever's claim (a key has `sessions:assign`). */
        release: (id: string) =>
          call<Success<'releaseReviewClaim'>>({
            method: 'DELETE',
            path: `/v1/sessions/${segment(id)}/claim`,
          }),
      },
      evidence: {
        /** `GET /v1/sessions/:id/evidence`: every upload of the session (one response, not paged). */
        list: (id: string) =>
          call<Success<'listSessionEvidence'>>({
            method: 'GET',
            path: `/v1/sessions/${segment(id)}/evidence`,
          }),
        /** `GET /v1/sessions/:id/evidence/:upload_id`: the image itself. */
        download: async (id: string, uploadId: string): Promise<EvidenceFile> => {
          const response = await send(config, {
            method: 'GET',
            path: `/v1/sessions/${segment(id)}/evidence/${segment(uploadId)}`,
          });
          return {
            contentType: response.headers.get('content-type') ?? 'application/octet-stream',
            bytes: new Uint8Array(await response.arrayBuffer()),
          };
        },
      },
    },
    reviewQueue: {
      /** `GET /v1/review-queue`: sessions waiting for a person, oldest first, with waiting time and claim. */
      list: (query: Query<'listReviewQueue'> = {}) =>
        list<Schemas['ReviewQueueItem'], Query<'listReviewQueue'>>(
          '/v1/review-queue',
          query,
          (item) => item.session_id,
        ),
    },
    sandbox: {
      /** `POST /v1/sandbox/sessions/:id/simulate` (sandbox keys only): plays a session through to an outcome. */
      simulate: (id: string, body: RequestBody<'simulateSession'>, requestOptions?: RequestOptions) =>
        post<Success<'simulateSession'>>(
          `/v1/sandbox/sessions/${segment(id)}/simulate`,
          body,
          requestOptions,
        ),
    },
    identities: {
      /** `GET /v1/identities/:id` */
      get: (id: string) =>
        call<Success<'getIdentity'>>({ method: 'GET', path: `/v1/identities/${segment(id)}` }),
      /** `GET /v1/identities` */
      list: (query: Query<'listIdentities'> = {}) =>
        list<Schemas['Identity'], Query<'listIdentities'>>(
          '/v1/identities',
          query,
          (item) => item.identity_id,
        ),
    },
    reverification: {
      /** `POST /v1/identities/:identity_id/reverification-requests` */
      create: (
        identityId: string,
        body: RequestBody<'createReverificationRequest'>,
        requestOptions?: RequestOptions,
      ) =>
        post<Success<'createReverificationRequest'>>(
          `/v1/identities/${segment(identityId)}/reverification-requests`,
          body,
          requestOptions,
        ),
      /** `GET /v1/identities/:identity_id/reverification-request`: the open request (404 when none). */
      getOpen: (identityId: string) =>
        call<Success<'getOpenReverificationRequest'>>({
          method: 'GET',
          path: `/v1/identities/${segment(identityId)}/reverification-request`,
        }),
    },
    webhooks: {
      /** `POST /v1/webhooks`: the answer holds the signing `secret`, shown only here. */
      create: (body: RequestBody<'createWebhook'>, requestOptions?: RequestOptions) =>
        post<Success<'createWebhook'>>('/v1/webhooks', body, requestOptions),
      /** `GET /v1/webhooks/:id` */
      get: (id: string) =>
        call<Success<'getWebhook'>>({ method: 'GET', path: `/v1/webhooks/${segment(id)}` }),
      /** `GET /v1/webhooks` */
      list: (query: Query<'listWebhooks'> = {}) =>
        list<Schemas['Webhook'], Query<'listWebhooks'>>('/v1/webhooks', query, (item) => item.webhook_id),
      /** `PATCH /v1/webhooks/:id` (never retried: a PATCH takes no idempotency key). */
      update: (id: string, body: RequestBody<'updateWebhook'>) =>
        call<Success<'updateWebhook'>>({ method: 'PATCH', path: `/v1/webhooks/${segment(id)}`, body }),
      /** `DELETE /v1/webhooks/:id` */
      delete: (id: string) =>
        call<Success<'deleteWebhook'>>({ method: 'DELETE', path: `/v1/webhooks/${segment(id)}` }),
      /** `POST /v1/webhooks/:id/rotate-secret`: a new secret; the old one keeps signing for a while. */
      rotateSecret: (
        id: string,
        body?: RequestBody<'rotateWebhookSecret'>,
        requestOptions?: RequestOptions,
      ) =>
        post<Success<'rotateWebhookSecret'>>(
          `/v1/webhooks/${segment(id)}/rotate-secret`,
          body,
          requestOptions,
        ),
      /** `POST /v1/webhooks/:id/test`: sends `webhook.test` and says whether it was delivered. */
      test: (id: string, requestOptions?: RequestOptions) =>
        post<Success<'testWebhook'>>(`/v1/webhooks/${segment(id)}/test`, undefined, requestOptions),
      deliveries: {
        /** `GET /v1/webhooks/:id/deliveries` */
        list: (id: string, query: Query<'listWebhookDeliveries'> = {}) =>
          list<Schemas['WebhookDelivery'], Query<'listWebhookDeliveries'>>(
            `/v1/webhooks/${segment(id)}/deliveries`,
            query,
            (item) => item.delivery_id,
          ),
        /** `POST /v1/webhooks/:id/deliveries/:delivery_id/retry` */
        retry: (id: string, deliveryId: string, requestOptions?: RequestOptions) =>
          post<Success<'retryWebhookDelivery'>>(
            `/v1/webhooks/${segment(id)}/deliveries/${segment(deliveryId)}/retry`,
            undefined,
            requestOptions,
          ),
      },
    },
    events: {
      /** `GET /v1/events/:id` */
      get: (id: string) => call<Success<'getEvent'>>({ method: 'GET', path: `/v1/events/${segment(id)}` }),
      /** `GET /v1/events`: what the webhooks deliver, kept 30 days. */
      list: (query: Query<'listEvents'> = {}) =>
        list<Schemas['Event'], Query<'listEvents'>>('/v1/events', query, (item) => item.event_id),
    },
    watchlist: {
      /** `GET /v1/watchlist` */
      get: () => call<Success<'getWatchlist'>>({ method: 'GET', path: '/v1/watchlist' }),
      /** `PUT /v1/watchlist`: replaces the whole list. */
      put: (body: RequestBody<'putWatchlist'>, requestOptions?: RequestOptions) =>
        call<Success<'putWatchlist'>>({
          method: 'PUT',
          path: '/v1/watchlist',
          body,
          idempotent: true,
          ...requestOptions,
        }),
    },
    tenant: {
      /** `GET /v1/tenant`: your tenant's settings (changing them needs the console). */
      get: () => call<Success<'getTenant'>>({ method: 'GET', path: '/v1/tenant' }),
    },
    stats: {
      /** `GET /v1/stats`: sessions by status, approval rate, review queue. */
      get: (query: Query<'getStats'> = {}) =>
        call<Success<'getStats'>>({
          method: 'GET',
          path: '/v1/stats',
          query: query as Record<string, never>,
        }),
    },
  };
}

export type IdVerifyClient = ReturnType<typeof createIdVerifyClient>;
