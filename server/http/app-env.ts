import type { Env } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import type { Environment } from '../domain/api-key-format.ts';
import type { Capability, Role } from '../domain/capabilities.ts';
import type { AuthenticationMethod } from '../features/auth/access-tokens.ts';
import type { VerifyCaller } from './verify-context.ts';
import type { VerifyForm } from './verify-form.ts';
import type { IdempotentAnswer } from './idempotent-replay.ts';

/** Who is calling, resolved once per request from `x-api-key` or a console Bearer token. */
export interface Principal {
  kind: 'api_key' | 'user';
  tenantId: string;
  environment: Environment;
  capabilities: ReadonlySet<Capability>;
  /** The key id (`key_…`) or user id (`usr_…`): idempotency and rate limits are kept per credential. */
  credentialId: string;
  tenantStatus: string;
  user?: { id: string; email: string; role: Role; status: string };
  /**
   * A console token: its id and expiry (for logout), how the user logged in (`amr`), and whether it may
   * only enrol a second factor.
   */
  token?: { jti: string; expiresAt: Date; amr: readonly AuthenticationMethod[]; enrolmentOnly: boolean };
}

export interface AppEnv extends Env {
  Variables: {
    deps: AppDeps;
    requestId: string;
    principal: Principal;
    /** Parsed JSON body, set by the body middleware before validation. */
    jsonBody: unknown;
    /**
     * The headers this request's response owes (request id, API headers, rate limit), lower-case names;
     * see request-envelope.ts.
     */
    responseHeaders: Record<string, string>;
    /** On `/v1/verify/*`: the session the token resolved to (verify-auth.ts). */
    verifyCaller?: VerifyCaller;
    /** On `/v1/verify/*`: the tenant does not allow this `Origin`, so the answer gets no CORS headers. */
    originRefused?: boolean;
    /** While an `Idempotency-Key` claim runs: stores the answer with the effect (idempotent-replay.ts). */
    idempotentAnswer?: IdempotentAnswer;
    /** On multipart uploads: the form, read once for the idempotency fingerprint and the form validator. */
    verifyForm?: Promise<VerifyForm>;
  };
}
