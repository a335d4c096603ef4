import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import { randomBase62 } from '../../crypto/primitives.ts';
import { ROLES } from '../../domain/capabilities.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { insertInvitedUser } from '../../store/users.ts';
import { INVITATION_TTL_MS, issueInvitationToken } from '../../features/users/invitation-token.ts';
import { assertMayGrant } from '../../features/users/role-rules.ts';
import { EmailAddress, InvitedUserSchema, toTenantUserObject } from './users-schemas.ts';

const InviteUserBody = z
  .strictObject({ email: EmailAddress, role: z.enum(ROLES) })
  .openapi('InviteUserRequest');

export const inviteUserRoute = createRoute({
  operationId: 'inviteUser',
  method: 'post',
  path: '/v1/users',
  tags: ['Users'],
  summary: 'Invite a console user',
  description:
    'Creates the user as `invited` and returns an `invitation_token` once: the invited person chooses their own password with it (`POST /v1/console/accept-invitation`) within 7 days; until then the account cannot log in. Nobody, the admin included, ever learns the password. E-mail addresses are unique per tenant: an address that already has an account in this tenant is 409 `email_in_use`; one with an account in another tenant gets a separate account here, with its own password, and the answer is the same as for any new address (it says nothing about other tenants). Needs `users:write`.',
  security: [{ ConsoleBearer: [] }],
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: InviteUserBody } } },
  },
  responses: {
    201: {
      description: 'The invited user, with its invitation token',
      content: { 'application/json': { schema: InvitedUserSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'email_in_use',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerInviteUser(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...inviteUserRoute, middleware: kit.tenant({ capability: 'users:write', body: 'json' }) },
    async (c) => {
      const { email, role } = c.req.valid('json');
      const principal = c.get('principal');
      assertMayGrant(role, principal.capabilities, 'role');
      const { token, tokenHash } = await issueInvitationToken();
      // A password nobody knows, so the row is complete and no login can succeed before the invitation is
      // accepted (the login then spends the same Argon2 time as for any wrong password).
      const placeholderHash = await deps.passwords.hash(randomBase62(128));
      const now = deps.clock.now();
      // The answer, whose token is shown once, commits with the account (sealed when an Idempotency-Key
      // runs): a retry after a crash gets it replayed, not 409 `email_in_use` for the account it made.
      const answer = await deps.db.transaction(async (tx) => {
        const inserted = await insertInvitedUser(tx, {
          id: deps.ids('usr'),
          tenantId: principal.tenantId,
          email,
          passwordHash: placeholderHash,
          role,
          invitationTokenHash: tokenHash,
          invitationExpiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
          invitedBy: principal.credentialId,
          now,
        });
        if (!inserted) {
          throw new ApiError(
            'email_in_use',
            'This e-mail address already belongs to a user of this tenant.',
            {
              param: 'email',
            },
          );
        }
        await recordAuditEvent(tx, deps, auditOriginOf(c, deps), {
          action: 'user.invited',
          tenantId: principal.tenantId,
          actor: actorOf(principal),
          target: { type: 'user', id: inserted.id },
          details: { role },
        });
        const body = { ...toTenantUserObject(inserted), invitation_token: token };
        await answerInTransaction(c, tx, 201, body);
        return body;
      });
      return c.json(answer, 201);
    },
  );
}
