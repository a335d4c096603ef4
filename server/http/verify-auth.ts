import { createMiddleware } from 'hono/factory';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from './app-env.ts';
import { readSession } from '../features/sessions/transition-session.ts';
import { hashVerifyToken } from '../features/sessions/verify-token.ts';
import { findTenant } from '../store/tenants.ts';
import { findVerifyHandoff } from '../store/verify-handoffs.ts';
import { findSessionById, findSessionByVerifyTokenHash } from '../store/verify-sessions.ts';
import { isAllowedVerifyOrigin } from './allowed-origin.ts';
import { refuseOrigin, setVerifyCaller, type VerifyCaller } from './verify-context.ts';
import { verifyError } from '../features/verify/verify-errors.ts';
import { createInvalidVerifyTokenThrottle, createVerifyRateLimiter } from './verify-rate-limit.ts';
import { networkPrefixOf } from '../features/audit/network-prefix.ts';

/** Verify and handoff tokens are base62 (160 bits: 28 characters); anything else is not worth a query. */
const TOKEN_SHAPE = /^[0-9A-Za-z]{20,64}$/;
const READ_METHODS = new Set(['GET', 'HEAD']);

const INVALID_LINK = 'This verification link is not valid. Please use the latest link you were given.';

/**
 * Whose wrong tokens count together: an IPv4 address itself (a /24 would throttle a whole carrier NAT
 * with the guesser), an IPv6 address by its /48 (one host holds at least a /64 and can rotate through it).
 * Null when the host gives no address: nothing is throttled then.
 */
function throttleKeyOf(address: string | undefined): string | null {
  const prefix = address ? networkPrefixOf(address) : null;
  if (!prefix || !address) return null;
  return prefix.endsWith('/24') ? address.trim().replace(/^::ffff:/i, '') : prefix;
}

/**
 * Authenticates an end-user request by its `x-verify-token` (the session's link or a handoff link) and
 * resolves the one session it addresses; the token is never compared with anything but its own hash,
 * so it cannot reach another session. Then, in order: the tenant must be active, the session not
 * expired (410 `session_expired`, expiry applied on read), a handoff link not past its short lifetime
 * (410 `verify_token_expired`), the browser origin allowed for the tenant (403 `origin_not_allowed`),
 * and the per-session rate limit not exceeded. Wrong tokens are counted per client address, and past
 * their limit an address is refused (429) before its token is even hashed (verify-rate-limit.ts).
 */
export function verifyAuth(deps: AppDeps) {
  const rateLimit = createVerifyRateLimiter(deps);
  const invalidTokens = createInvalidVerifyTokenThrottle(deps);
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = c.req.header('x-verify-token');
    if (token === undefined || token === '') {
      throw verifyError('authentication_required', 'Open this page from your verification link.', {
        headers: { 'www-authenticate': 'x-verify-token' },
      });
    }
    const caller = throttleKeyOf(deps.clientAddress?.(c.req.raw, c.env));
    invalidTokens.refuseIfThrottled(caller, deps.clock.now().getTime());
    const invalidLink = async () => {
      await invalidTokens.countInvalid(caller, deps.clock.now().getTime());
      return verifyError('invalid_token', INVALID_LINK);
    };
    if (!TOKEN_SHAPE.test(token)) throw await invalidLink();
    const tokenHash = await hashVerifyToken(token);
    let via: VerifyCaller['via'] = 'verify_token';
    let found = await findSessionByVerifyTokenHash(deps.db, tokenHash);
    let handoffExpiresAt: Date | null = null;
    if (!found) {
      const handoff = await findVerifyHandoff(deps.db, tokenHash);
      const parent = handoff ? await findSessionById(deps.db, handoff.session_id) : null;
      // A handoff dies with the link that issued it: refreshing the verify_url revokes its handoffs.
      if (!handoff || !parent || parent.verify_token_hash !== handoff.parent_token_hash) {
        throw await invalidLink();
      }
      found = parent;
      via = 'handoff';
      handoffExpiresAt = handoff.expires_at;
    }
    const tenant = await findTenant(deps.db, found.tenant_id);
    if (!tenant) throw verifyError('invalid_token', INVALID_LINK);
    if (tenant.status !== 'active') {
      throw verifyError('tenant_suspended', 'Verification is not available at the moment.');
    }
    const origin = c.req.header('origin');
    if (
      origin !== undefined &&
      !isAllowedVerifyOrigin(origin, {
        verifyBaseUrl: deps.config.verifyBaseUrl,
        allowedOrigins: tenant.allowed_origins,
        environment: found.environment,
      })
    ) {
      refuseOrigin(c);
      throw verifyError('origin_not_allowed', 'This page is not allowed to run this verification.');
    }
    const scope = { tenantId: found.tenant_id, environment: found.environment };
    const session = await readSession(deps.db, deps, scope, found.id, found);
    if (session.status === 'expired') {
      throw verifyError('session_expired', 'This verification has expired. Please ask for a new link.');
    }
    if (handoffExpiresAt && handoffExpiresAt.getTime() <= deps.clock.now().getTime()) {
      throw verifyError(
        'verify_token_expired',
        'This link has expired. Scan a new QR code from the device where you started.',
      );
    }
    await rateLimit(
      session.id,
      READ_METHODS.has(c.req.method) ? 'read' : 'write',
      deps.clock.now().getTime(),
    );
    setVerifyCaller(c, { session, tenant, via });
    await next();
  });
}
