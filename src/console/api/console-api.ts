import { type ConsoleProblem, ConsoleApiError } from './console-api-error.ts';
import type { Environment, LoginAnswer, LoginResponse, Me, SecondFactorAnswer } from './console-types.ts';

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
 *   const sessions = await api.get<List<Session>>('/v1/sessions', { query: { status: ['review_required'] } });
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
    const body = { email, password, ...(tenantId ? { tenant_id: tenantId } : {}) };
    return this.#json<LoginAnswer>('POST', '/v1/console/login', { body }, 'none');
  }

  /** Completes a login with a second factor (a code, a recovery code or a passkey assertion). */
  loginSecondFactor(challengeToken: string, answer: SecondFactorAnswer): Promise<LoginResponse> {
    return this.#json<LoginResponse>(
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

  me(signal?: AbortSignal): Promise<Me> {
    return this.get<Me>('/v1/me', signal ? { signal } : {});
  }

  get<T>(path: string, options: Omit<SendOptions, 'body'> = {}): Promise<T> {
    return this.#json<T>('GET', path, options, options.quiet ? 'quiet' : 'token');
  }

  post<T>(path: string, options: SendOptions = {}): Promise<T> {
    return this.#json<T>('POST', path, options);
  }

  patch<T>(path: string, options: SendOptions = {}): Promise<T> {
    return this.#json<T>('PATCH', path, options);
  }

  put<T>(path: string, options: SendOptions = {}): Promise<T> {
    return this.#json<T>('PUT', path, options);
  }

  delete<T>(path: string, options: SendOptions = {}): Promise<T> {
    return this.#json<T>('DELETE', path, options);
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
