import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import type { SessionRow } from '../store/sessions.ts';
import type { TenantRow } from '../store/tenants.ts';

/** Who is calling a `/v1/verify/*` endpoint: the session a verify or handoff token resolved to. */
export interface VerifyCaller {
  session: SessionRow;
  tenant: TenantRow;
  /** `verify_token` for the session's own link, `handoff` for the short-lived second link. */
  via: 'verify_token' | 'handoff';
}

export function setVerifyCaller(c: Context<AppEnv>, caller: VerifyCaller): void {
  c.set('verifyCaller', caller);
}

/** The resolved caller; only routes behind the verify middleware (verify-auth.ts) call this. */
export function verifyCaller(c: Context<AppEnv>): VerifyCaller {
  const caller = c.get('verifyCaller');
  if (!caller) throw new Error('verifyCaller used on a route without the verify middleware');
  return caller;
}

/** Marks a request whose `Origin` the session's tenant does not allow: its answer gets no CORS headers. */
export function refuseOrigin(c: Context<AppEnv>): void {
  c.set('originRefused', true);
}

export function isOriginRefused(c: Context<AppEnv>): boolean {
  return c.get('originRefused') === true;
}
