import type { Context } from 'hono';
import type { SessionRow } from '../../store/sessions.ts';
import type { TenantRow } from '../../store/tenants.ts';

/** Who is calling a `/v1/verify/*` endpoint: the session a verify or handoff token resolved to. */
export interface VerifyCaller {
  session: SessionRow;
  tenant: TenantRow;
  /** `verify_token` for the session's own link, `handoff` for the short-lived second link. */
  via: 'verify_token' | 'handoff';
}

// Kept beside the request rather than in Hono's typed variables, which belong to the shared AppEnv.
const callers = new WeakMap<Context, VerifyCaller>();
const refusedOrigins = new WeakSet<Context>();

export function setVerifyCaller(c: Context, caller: VerifyCaller): void {
  callers.set(c, caller);
}

/** The resolved caller; only routes behind the verify middleware call this. */
export function verifyCaller(c: Context): VerifyCaller {
  const caller = callers.get(c);
  if (!caller) throw new Error('verifyCaller used on a route without the verify middleware');
  return caller;
}

/** Marks a request whose `Origin` the session's tenant does not allow: its answer gets no CORS headers. */
export function refuseOrigin(c: Context): void {
  refusedOrigins.add(c);
}

export function isOriginRefused(c: Context): boolean {
  return refusedOrigins.has(c);
}
