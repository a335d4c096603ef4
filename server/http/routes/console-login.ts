import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { answerPasswordStep } from '../../features/second-factors/password-step.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { jsonBody } from '../json-body.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import {
  assertLoginAllowed,
  forgetFailedLogins,
  loginFailureScope,
  recordFailedLogin,
} from '../../features/auth/login-throttle.ts';
import { matchPassword } from '../../features/users/login-account.ts';
import { ConsoleLoginTokens, SecondFactorChallenge } from './schemas/second-factor-schemas.ts';

const LoginBody = z
  .strictObject({
    email: z.string().min(3).max(254).openapi({ example: 'admin@demo.example' }),
    password: z.string().min(1).max(1024),
    tenant_id: z.string().min(1).max(64).optional().openapi({
      description:
        'The tenant to log in to. Needed only when this e-mail and password open accounts in several tenants (the answer is then 400 `missing_parameter` on `tenant_id` with `tenants`, the choice).',
    }),
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
  description:
    'Returns a Bearer access token. Failed logins slow further attempts, never lock the account: growing delays (429 with `retry-after`) per account and network, per account from anywhere (capped at 60 s) and per network (docs/security.md).',
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
      'missing_parameter',
    ),
  },
});

export function registerConsoleLogin(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...consoleLoginRoute, middleware: [jsonBody()] }, async (c) => {
    const { email, password, tenant_id: tenantId } = c.req.valid('json');
    const address = deps.clientAddress?.(c.req.raw, c.env) ?? 'unknown';
    const now = deps.clock.now();
    // Throttled before the password is checked: a delayed attempt learns nothing (features/auth/login-throttle.ts).
    const failureScope = await loginFailureScope(deps, email, address);
    await assertLoginAllowed(deps, failureScope, now);
    // E-mails are unique per tenant: the password picks the account (features/users/login-account.ts).
    const match = await matchPassword(deps, email, password, tenantId);
    if (match.kind === 'several') {
      throw new ApiError(
        'missing_parameter',
        'This e-mail and password open accounts in several tenants: send `tenant_id`, one of `tenants`.',
        { param: 'tenant_id', extensions: { tenants: match.tenants } },
      );
    }
    const user = match.kind === 'one' ? match.user : null;
    if (!user) {
      await recordFailedLogin(deps, failureScope, now);
      throw new ApiError('invalid_credentials', 'The e-mail or password is incorrect.');
    }
    if (user.status !== 'active') throw new ApiError('user_disabled', 'This user is disabled.');
    await forgetFailedLogins(deps, failureScope);
    // Tokens, or the second step when the user has a second factor (features/second-factors/password-step.ts).
    return c.json(await answerPasswordStep(deps, kit.auth.tokenSettings, user, now), 200);
  });
}
