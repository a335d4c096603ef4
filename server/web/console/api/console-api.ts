import { type ConsoleProblem, ConsoleApiError } from './console-api-error.ts';
import type { components, paths } from '../../../client/src/openapi-types.ts';

/*
 * The console's API types are the server's: `openapi-types.ts` is generated from the server's zod routes
 * (`npm run generate:client`, drift-tested), and everything here is type-only, so none of it reaches the
 * bundle. `Schemas['Session']` is a session as the API sends it.
 */
export type Schemas = components['schemas'];
export type Environment = Schemas['Me']['environment'];
export type Role = Schemas['User']['role'];
export type Capability = Schemas['Me']['capabilities'][number];

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
/** The OpenAPI paths that have `method`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, unknown> ? P : never;
}[keyof paths];
type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;
/** The JSON body of an operation's success answer (`undefined` for 204 No Content). */
export type ResponseOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? {
        [C in keyof R & (200 | 201 | 204)]: R[C] extends { content: { 'application/json': infer B } }
          ? B
          : undefined;
      }[keyof R & (200 | 201 | 204)]
    : never;
/** The JSON body an operation takes. */
export type RequestOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends {
    requestBody?: { content: { 'application/json': infer B } };
  }
    ? B
    : never;
/** The `{name}` segments of a path, to fill in. */
type ParamsOf<P> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Record<Name, string> & ParamsOf<Rest>
  : unknown;
/** The options of a call to `path`: `params` when the path has `{…}` segments, a typed `body` when it takes one. */
type CallOptions<P extends keyof paths, M extends Method> = Omit<SendOptions, 'body'> & {
  body?: RequestOf<P, M>;
} & (P extends `${string}{${string}` ? { params: ParamsOf<P> } : { params?: never });
type CallArgs<P extends keyof paths, M extends Method> = P extends `${string}{${string}`
  ? [options: CallOptions<P, M>]
  : [options?: CallOptions<P, M>];

/** What the password step answers. */
export type LoginAnswer = ResponseOf<'/v1/console/login', 'post'>;
/** One of the second factors `POST /v1/console/login/second-factor` takes. */
export type SecondFactorAnswer = Omit<
  RequestOf<'/v1/console/login/second-factor', 'post'>,
  'challenge_token'
>;

/** Query values: arrays repeat the parameter (`status=a&status=b`); empty values are left out. */
export type Query = Record<string, string | number | boolean | readonly string[] | null | undefined>;

export interface ConsoleApiOptions {
  /** Origin (plus optional prefix) of `/v1`; '' for the console's own origin, where the server serves it. */
  base?: string;
  /** The fetch seam: tests pass a stub or the in-page app. Defaults to the global fetch, read per call. */
  fetch?: typeof fetch;
  /** The current Bearer token, read per call (it changes on login and logout). */
  token: () => string | null;
  /** The environment every tenant call is scoped to (`x-environment`). */
  environment: () => Environment;
  /** Called once per 401: the token expired or was revoked; the shell sends the user to the login page. */
  onUnauthorized?: (error: ConsoleApiError) => void;
}

/** `token`: a tenant call; `quiet`: one whose 401 is expected (logout); `none`: no credential (login). */
type AuthMode = 'token' | 'quiet' | 'none';

export interface SendOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Replays the first answer when the same action is sent twice (API.md §1). */
  idempotencyKey?: string;
  /** Another environment than the one shown, for a read that looks across (the picker's counts). */
  environment?: Environment;
  /**
   * A background read whose 401 ends nothing: the page's own calls report an ended session. Without it a
   * late 401 of an old token could end the session the user has just logged in again with.
   */
  quiet?: boolean;
}

/** Appends a query to a path, leaving out empty values. */
export function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The console's client for `/v1`: Bearer token and `x-environment` on every call, problem details turned
 * into {@link ConsoleApiError}, and a 401 reported to the shell (which asks the user to log in again and
 * then returns to the page they were on).
 *
 * @example
 *   const api = new ConsoleApi({ token: () => store.token, environment: () => 'sandbox' });
 *   const sessions = await api.get('/v1/sessions', { query: { status: ['review_required'] } });
 */
export class ConsoleApi {
  readonly #base: string;
  readonly #fetch: typeof fetch | undefined;
  readonly #options: ConsoleApiOptions;

  constructor(options: ConsoleApiOptions) {
    this.#base = (options.base ?? '').replace(/\/$/, '');
    this.#fetch = options.fetch;
    this.#options = options;
  }

  /**
   * Exchanges an e-mail and password for a token, or for the challenge of a second step when the user
   * has a second factor; a wrong pair is 401 `invalid_credentials`, not a logout. `tenantId` picks the
   * account when the pair opens several (400 `missing_parameter` on `tenant_id` with `tenants`).
   */
  login(email: string, password: string, tenantId?: string): Promise<LoginAnswer> {
    const body: RequestOf<'/v1/console/login', 'post'> = {
      email,
      password,
      ...(tenantId ? { tenant_id: tenantId } : {}),
    };
    return this.#json('POST', '/v1/console/login', { body }, 'none');
  }

  /** Completes a login with a second factor (a code, a recovery code or a passkey assertion). */
  loginSecondFactor(
    challengeToken: string,
    answer: SecondFactorAnswer,
  ): Promise<ResponseOf<'/v1/console/login/second-factor', 'post'>> {
    return this.#json(
      'POST',
      '/v1/console/login/second-factor',
      { body: { challenge_token: challengeToken, ...answer } },
      'none',
    );
  }

  /** Revokes the current token on the server. */
  async logout(): Promise<void> {
    // A 401 here means the token was already dead: nothing to report, the user is leaving anyway.
    await this.#json('POST', '/v1/console/logout', {}, 'quiet');
  }

  me(signal?: AbortSignal): Promise<Schemas['Me']> {
    return this.get('/v1/me', signal ? { signal } : {});
  }

  /**
   * `GET path`, typed by the OpenAPI document: `params` fill its `{…}` segments (encoded), and the answer
   * is that operation's success body.
   *
   * @example
   *   const result = await api.get('/v1/sessions/{id}/result', { params: { id } });
   */
  get<P extends PathOf<'get'>>(path: P, ...[options]: CallArgs<P, 'get'>): Promise<ResponseOf<P, 'get'>> {
    return this.#call('GET', path, options, options?.quiet ? 'quiet' : 'token');
  }

  post<P extends PathOf<'post'>>(path: P, ...[options]: CallArgs<P, 'post'>): Promise<ResponseOf<P, 'post'>> {
    return this.#call('POST', path, options);
  }

  patch<P extends PathOf<'patch'>>(
    path: P,
    ...[options]: CallArgs<P, 'patch'>
  ): Promise<ResponseOf<P, 'patch'>> {
    return this.#call('PATCH', path, options);
  }

  put<P extends PathOf<'put'>>(path: P, ...[options]: CallArgs<P, 'put'>): Promise<ResponseOf<P, 'put'>> {
    return this.#call('PUT', path, options);
  }

  delete<P extends PathOf<'delete'>>(
    path: P,
    ...[options]: CallArgs<P, 'delete'>
  ): Promise<ResponseOf<P, 'delete'>> {
    return this.#call('DELETE', path, options);
  }

  #call<T>(
    method: string,
    path: string,
    options: (SendOptions & { params?: Record<string, string> }) | undefined,
    auth: AuthMode = 'token',
  ): Promise<T> {
    const params = options?.params;
    const filled = params
      ? path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
      : path;
    return this.#json<T>(method, filled, options ?? {}, auth);
  }

  /** A binary download (evidence images) with the console's credentials: the bytes never get a URL of their own. */
  async blob(path: string, signal?: AbortSignal): Promise<Blob> {
    const response = await this.#send('GET', path, signal ? { signal } : {}, 'token');
    return response.blob();
  }

  async #json<T>(method: string, path: string, options: SendOptions, auth: AuthMode = 'token'): Promise<T> {
    const response = await this.#send(method, path, options, auth);
    // 204 No Content (releasing a review claim): there is no body to parse.
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  async #send(method: string, path: string, options: SendOptions, auth: AuthMode): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = auth === 'none' ? null : this.#options.token();
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (auth !== 'none') headers['x-environment'] = options.environment ?? this.#options.environment();
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const init: RequestInit = { method, headers, credentials: 'omit', cache: 'no-store' };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    if (options.signal) init.signal = options.signal;
    const doFetch = this.#fetch ?? globalThis.fetch.bind(globalThis);
    let response: Response;
    try {
      response = await doFetch(`${this.#base}${withQuery(path, options.query)}`, init);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ConsoleApiError(0, { detail: error instanceof Error ? error.message : String(error) });
    }
    if (response.ok) return response;
    const problem = await response
      .json()
      .then((body: unknown) => (body && typeof body === 'object' ? (body as ConsoleProblem) : {}))
      .catch((): ConsoleProblem => ({}));
    const error = new ConsoleApiError(response.status, problem);
    if (auth === 'token' && error.isUnauthenticated) this.#options.onUnauthorized?.(error);
    throw error;
  }
}
