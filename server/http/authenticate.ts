import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import { hashApiKey } from '../features/auth/api-key-secrets.ts';
import {
  type AccessTokenSettings,
  hasSecondFactorMethod,
  SECOND_FACTOR_ENROLMENT_SCOPE,
  verifyAccessToken,
} from '../features/auth/access-tokens.ts';
import { timingSafeEqualText } from '../crypto/primitives.ts';
import { ENVIRONMENTS, type Environment, parseApiKey } from '../domain/api-key-format.ts';
import { type Capability, capabilitiesOfApiKey, capabilitiesOfRole } from '../domain/capabilities.ts';
import { ApiError } from '../errors/api-error.ts';
import { type ApiKeyWithTenant, findApiKeyByKeyId, touchApiKey } from '../store/api-keys.ts';
import { findUserForToken } from '../store/users.ts';
import type { AppEnv, Principal } from './app-env.ts';
import { TtlCache } from './ttl-cache.ts';

export interface AuthenticateOptions {
  /** The capability the operation needs; omitted for operations any signed-in caller may use. */
  capability?: Capability;
  /** `/v1/me` still answers for a suspended tenant, so its users can see why nothing else works. */
  allowSuspendedTenant?: boolean;
  /** Operations only a console user can call (`/v1/me`, logout). */
  consoleOnly?: boolean;
  /**
   * The few operations a token restricted to second-factor enrolment reaches (enrolment itself, logout):
   * every other operation answers such a token 403 `second_factor_required`.
   */
  secondFactorEnrolment?: boolean;
}

/**
 * API-key lookups are cached briefly: the hot path then costs no query (PGlite runs ~0.3 ms per
 * statement). Revocation on this instance clears the entry at once; other instances see it within the TTL.
 */
export const API_KEY_CACHE_TTL_MS = 10_000;
/** What every API key may do: one read-only set for every request rather than a new one each time. */
const API_KEY_CAPABILITIES: ReadonlySet<Capability> = new Set(capabilitiesOfApiKey());
/** How often `last_used_at` is written per key: once a minute is precise enough and saves a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface Authenticator {
  middleware(options?: AuthenticateOptions): ReturnType<typeof createMiddleware<AppEnv>>;
  /** What the middleware does, for a chain that runs it inline: the caller, or a thrown 401/403. */
  authenticate(c: Context<AppEnv>, options?: AuthenticateOptions): Promise<Principal>;
  forgetApiKey(keyId: string): void;
  tokenSettings: AccessTokenSettings;
}

export function tokenSettingsOf(deps: AppDeps): AccessTokenSettings {
  return { secret: deps.jwtSecret, issuer: deps.config.baseUrl, audience: `${deps.config.baseUrl}/v1` };
}

/** A browser sent this request from another site: an API key must never live in client-side code. */
function isCrossSiteBrowserRequest(c: Context<AppEnv>, ownOrigin: string): boolean {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = c.req.header('origin');
  return origin !== undefined && origin !== ownOrigin;
}

export function createAuthenticator(deps: AppDeps): Authenticator {
  const keys = new TtlCache<{ row: ApiKeyWithTenant; lastTouchedMs: number }>(API_KEY_CACHE_TTL_MS);
  /** SHA-256 of a presented key that matched its row → its key id (see apiKeyPrincipal). */
  const recognised = new TtlCache<string>(API_KEY_CACHE_TTL_MS);
  const tokenSettings = tokenSettingsOf(deps);
  const ownOrigin = new URL(deps.config.baseUrl).origin;

  async function apiKeyPrincipal(c: Context<AppEnv>, presented: string): Promise<Principal> {
    if (isCrossSiteBrowserRequest(c, ownOrigin)) {
      throw new ApiError(
        'browser_request_forbidden',
        'This request came from a web browser on another site. API keys belong on your server: create sessions there and give the browser only the verify_url.',
      );
    }
    const nowMs = deps.clock.now().getTime();
    const presentedHash = await hashApiKey(presented);
    // A key recognised in the last seconds needs no parsing (format and CRC check) again. Looked up by
    // the SHA-256 of what was presented, the digest the database keeps, never by the key itself.
    const known = recognised.get(presentedHash, nowMs);
    let keyId = known;
    if (keyId === undefined) {
      const parsed = parseApiKey(presented);
      if (!parsed)
        throw new ApiError(
          'invalid_api_key',
          'The x-api-key header does not hold a valid id-verify API key.',
        );
      keyId = parsed.keyId;
    }
    let cached = keys.get(keyId, nowMs);
    if (!cached) {
      const row = await findApiKeyByKeyId(deps.db, keyId);
      if (!row) throw new ApiError('invalid_api_key', 'The API key is not known.');
      cached = { row, lastTouchedMs: row.last_used_at?.getTime() ?? 0 };
      keys.set(keyId, cached, nowMs);
    }
    const { row } = cached;
    if (!timingSafeEqualText(row.secret_hash, presentedHash)) {
      throw new ApiError('invalid_api_key', 'The API key is not known.');
    }
    if (row.revoked_at) throw new ApiError('invalid_api_key', 'The API key has been revoked.');
    if (row.tenant_status !== 'active')
      throw new ApiError('tenant_suspended', 'The tenant of this key is suspended.');
    // Only a key that matched its row's digest is remembered; a revocation still takes effect through the
    // row cache above, which `forgetApiKey` clears.
    if (known === undefined) recognised.set(presentedHash, keyId, nowMs);
    if (nowMs - cached.lastTouchedMs > LAST_USED_RESOLUTION_MS) {
      cached.lastTouchedMs = nowMs;
      touchApiKey(deps.db, row.id, new Date(nowMs)).catch(() => {});
    }
    return {
      kind: 'api_key',
      tenantId: row.tenant_id,
      environment: row.environment,
      capabilities: API_KEY_CAPABILITIES,
      credentialId: row.id,
      tenantStatus: row.tenant_status,
    };
  }

  async function bearerPrincipal(c: Context<AppEnv>, authorization: string, options: AuthenticateOptions) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1])
      throw new ApiError('invalid_token', 'The Authorization header must be `Bearer <access_token>`.');
    const claims = await verifyAccessToken(tokenSettings, match[1], deps.clock.now());
    if (claims === 'expired')
      throw new ApiError('token_expired', 'The access token has expired; log in again.');
    if (claims === 'invalid') throw new ApiError('invalid_token', 'The access token is not valid.');
    const user = await findUserForToken(deps.db, claims.userId, claims.jti);
    if (!user || user.tenant_id !== claims.tenantId || user.token_revoked) {
      throw new ApiError('invalid_token', 'The access token is no longer valid.');
    }
    if (user.status !== 'active') throw new ApiError('user_disabled', 'This user is disabled.');
    if (user.tenant_status !== 'active' && !options.allowSuspendedTenant) {
      throw new ApiError('tenant_suspended', 'The tenant is suspended.');
    }
    // A token that proved no second factor, in a tenant that requires one (whether it did so at login or
    // since), only enrols one: checked on every request, so switching the setting on takes effect at once.
    const enrolmentOnly =
      claims.scope === SECOND_FACTOR_ENROLMENT_SCOPE ||
      (user.tenant_requires_second_factor && !hasSecondFactorMethod(claims));
    if (enrolmentOnly && !options.secondFactorEnrolment) {
      throw new ApiError(
        'second_factor_required',
        'Your organisation requires a second factor: enrol an authenticator app or a passkey, then log in again.',
      );
    }
    const environmentHeader = c.req.header('x-environment') ?? 'production';
    if (!ENVIRONMENTS.includes(environmentHeader as Environment)) {
      throw new ApiError('invalid_parameter', '`x-environment` must be `sandbox` or `production`.', {
        param: 'x-environment',
      });
    }
    const principal: Principal = {
      kind: 'user',
      tenantId: user.tenant_id,
      environment: environmentHeader as Environment,
      capabilities: new Set(capabilitiesOfRole(user.role)),
      credentialId: user.id,
      tenantStatus: user.tenant_status,
      user: { id: user.id, email: user.email, role: user.role, status: user.status },
      token: {
        jti: claims.jti,
        expiresAt: claims.expiresAt,
        amr: claims.amr ?? [],
        enrolmentOnly,
      },
    };
    return principal;
  }

  async function authenticate(c: Context<AppEnv>, options: AuthenticateOptions = {}): Promise<Principal> {
    const apiKey = c.req.header('x-api-key');
    const authorization = c.req.header('authorization');
    if (apiKey !== undefined && authorization !== undefined) {
      throw new ApiError('ambiguous_credentials', 'Send either x-api-key or a Bearer token, not both.');
    }
    if (apiKey === undefined && authorization === undefined) {
      throw new ApiError(
        'authentication_required',
        options.consoleOnly
          ? 'Send a console access token: `Authorization: Bearer <access_token>`.'
          : 'Send an API key in `x-api-key`, or a console access token as `Authorization: Bearer …`.',
        { headers: { 'www-authenticate': 'Bearer' } },
      );
    }
    if (apiKey !== undefined && options.consoleOnly) {
      throw new ApiError(
        'authentication_required',
        'This operation needs a console access token, not an API key.',
        {
          headers: { 'www-authenticate': 'Bearer' },
        },
      );
    }
    const principal =
      apiKey !== undefined
        ? await apiKeyPrincipal(c, apiKey)
        : await bearerPrincipal(c, authorization as string, options);
    if (options.capability && !principal.capabilities.has(options.capability)) {
      throw new ApiError(
        'insufficient_capability',
        `This operation needs the \`${options.capability}\` capability.`,
      );
    }
    return principal;
  }

  return {
    tokenSettings,
    forgetApiKey: (keyId) => keys.delete(keyId),
    authenticate,
    middleware: (options = {}) =>
      createMiddleware<AppEnv>(async (c, next) => {
        c.set('principal', await authenticate(c, options));
        await next();
      }),
  };
}
