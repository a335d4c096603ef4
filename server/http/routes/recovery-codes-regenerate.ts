import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { assertMayChangeSecondFactors, issueRecoveryCodes } from '../../features/second-factors/enrolment.ts';
import { ApiError } from '../../errors/api-error.ts';
import { hasSecondFactor, secondFactorSummary } from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';

const RecoveryCodes = z
  .object({ object: z.literal('recovery_codes'), recovery_codes: z.array(z.string()) })
  .openapi('RecoveryCodes');

export const regenerateRecoveryCodesRoute = createRoute({
  operationId: 'regenerateRecoveryCodes',
  method: 'post',
  path: '/v1/me/second-factors/recovery-codes',
  tags: ['Console'],
  summary: 'Replace your recovery codes',
  description:
    'Ten new single-use codes, shown this once; every earlier code stops working. Needs a second factor enrolled (409 `invalid_state_transition` otherwise).',
  security: [{ ConsoleBearer: [] }],
  responses: {
    201: { description: 'The new codes', content: { 'application/json': { schema: RecoveryCodes } } },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'tenant_suspended',
      'second_factor_required',
      'invalid_state_transition',
    ),
  },
});

export function registerRegenerateRecoveryCodes(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...regenerateRecoveryCodesRoute, middleware: kit.tenant({ consoleOnly: true, body: 'optional' }) },
    async (c) => {
      const principal = c.get('principal');
      const userId = (principal.user as NonNullable<typeof principal.user>).id;
      const now = deps.clock.now();
      const codes = await deps.db.transaction(async (tx) => {
        await assertMayChangeSecondFactors(tx, principal);
        if (!hasSecondFactor(await secondFactorSummary(tx, userId))) {
          throw new ApiError('invalid_state_transition', 'Enrol an authenticator app or a passkey first.');
        }
        const issued = await issueRecoveryCodes(tx, deps, userId, now);
        await recordAuditEvent(tx, deps, auditOriginOf(c, deps), {
          action: 'user.recovery_codes_issued',
          tenantId: principal.tenantId,
          actor: actorOf(principal),
          target: { type: 'user', id: userId },
        });
        return issued;
      });
      return c.json({ object: 'recovery_codes' as const, recovery_codes: codes }, 201);
    },
  );
}
