import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { answerPasswordStep } from '../../features/second-factors/password-step.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { jsonBody } from '../json-body.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import {
  clearLoginFailures,
  countRecentLoginFailures,
  recordLoginFailure,
} from '../../store/auth-records.ts';
import { findUserByEmail } from '../../store/users.ts';
import { ConsoleLoginTokens, SecondFactorChallenge } from './schemas/second-factor-schemas.ts';

const WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_ADDRESS = 20;

const LoginBody = z
  .strictObject({
    email: z.string().min(3).max(254).openapi({ example: 'admin@demo.example' }),
    password: z.string().min(1).max(1024),
  })
  .openapi('ConsoleLoginRequest');

/** Tokens, or (the user has a second factor) the challenge of the second step. */
const LoginResponse = z.union([ConsoleLoginTokens, SecondFactorChallenge]);

export const consoleLoginRoute = createRoute({
  operationId: 'consoleLogin',
  method: 'post',
  path: '/v1/console/login',
  tags: ['Console'],
  summary: 'Log in to the console',
  // Explicitly public: this is how a credential is obtained (OpenAPI: an empty list means no security).
  security: [],
  description: `Returns a Bearer access token. ${MAX_FAILURES_PER_ACCOUNT} failures per account (or ${MAX_FAILURES_PER_ADDRESS} per IP address) in 15 minutes lock further attempts with 429.`,
  request: { body: { required: true, content: { 'application/json': { schema: LoginBody } } } },
  responses: {
    200: {
      description:
        'Logged in (`access_token`), or, when the user has a second factor, `second_factor_required` with a challenge to complete at `POST /v1/console/login/second-factor`.',
      content: { 'application/json': { schema: LoginResponse } },
    },
    ...errorResponses(
      'invalid_credentials',
      'too_many_attempts',
      'user_disabled',
      'tenant_suspended',
      'invalid_json',
    ),
  },
});

/**
 * Verifying against this when the e-mail is unknown makes both failures cost the same Argon2 time, so
 * response timing does not reveal which addresses have accounts.
 */
let decoyHash: Promise<string> | undefined;

export function registerConsoleLogin(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...consoleLoginRoute, middleware: [jsonBody()] }, async (c) => {
    const { email, password } = c.req.valid('json');
    const emailKey = email.trim().toLowerCase();
    const address = deps.clientAddress?.(c.req.raw, c.env) ?? 'unknown';
    const now = deps.clock.now();
    const failures = await countRecentLoginFailures(
      deps.db,
      emailKey,
      address,
      new Date(now.getTime() - WINDOW_MS),
    );
    const lockedSince =
      failures.byEmail >= MAX_FAILURES_PER_ACCOUNT
        ? failures.oldestByEmail
        : failures.byIp >= MAX_FAILURES_PER_ADDRESS
          ? failures.oldestByIp
          : null;
    if (lockedSince) {
      const retryAfter = Math.max(1, Math.ceil((lockedSince.getTime() + WINDOW_MS - now.getTime()) / 1000));
      throw new ApiError(
        'too_many_attempts',
        `Too many failed logins; try again in ${Math.ceil(retryAfter / 60)} min.`,
        {
          headers: { 'retry-after': String(retryAfter) },
        },
      );
    }
    const user = await findUserByEmail(deps.db, emailKey);
    decoyHash ??= deps.passwords.hash('decoy password that matches no account');
    const valid = await deps.passwords.verify(user?.password_hash ?? (await decoyHash), password);
    if (!user || !valid) {
      await recordLoginFailure(deps.db, emailKey, address, now);
      throw new ApiError('invalid_credentials', 'The e-mail or password is incorrect.');
    }
    if (user.status !== 'active') throw new ApiError('user_disabled', 'This user is disabled.');
    if (failures.byEmail > 0) await clearLoginFailures(deps.db, emailKey);
    // Tokens, or the second step when the user has a second factor (features/second-factors/password-step.ts).
    return c.json(await answerPasswordStep(deps, kit.auth.tokenSettings, user, now), 200);
  });
}
