import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listPasskeys, secondFactorSummary } from '../../store/second-factors.ts';
import { findTenant } from '../../store/tenants.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { SecondFactorsSchema, toPasskeyObject } from './schemas/second-factor-schemas.ts';

export const getSecondFactorsRoute = createRoute({
  operationId: 'getSecondFactors',
  method: 'get',
  path: '/v1/me/second-factors',
  tags: ['Console'],
  summary: 'Your second factors',
  description:
    'Whether an authenticator app is enrolled, your passkeys and how many recovery codes are left. Reachable with a token restricted to enrolment.',
  security: [{ ConsoleBearer: [] }],
  responses: {
    200: {
      description: 'Your second factors',
      content: { 'application/json': { schema: SecondFactorsSchema } },
    },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'tenant_suspended',
    ),
  },
});

export function registerGetSecondFactors(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getSecondFactorsRoute, middleware: kit.tenant({ consoleOnly: true, secondFactorEnrolment: true }) },
    async (c) => {
      const principal = c.get('principal');
      const userId = (principal.user as NonNullable<typeof principal.user>).id;
      const [summary, passkeys, tenant] = await Promise.all([
        secondFactorSummary(deps.db, userId),
        listPasskeys(deps.db, userId),
        findTenant(deps.db, principal.tenantId),
      ]);
      return c.json(
        {
          object: 'second_factors' as const,
          totp: summary.totp,
          passkeys: passkeys.map(toPasskeyObject),
          recovery_codes_remaining: summary.unusedRecoveryCodes,
          required_by_tenant: tenant?.require_second_factor ?? false,
        },
        200,
      );
    },
  );
}
