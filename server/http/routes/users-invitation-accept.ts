import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { jsonBody } from '../json-body.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { acceptInvitation, findUserByInvitationToken } from '../../store/users.ts';
import { hashInvitationToken } from '../../features/users/invitation-token.ts';
import {
  checkPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../features/users/password-policy.ts';
import { TenantUserSchema, toTenantUserObject } from './users-schemas.ts';

const AcceptInvitationBody = z
  .strictObject({
    invitation_token: z.string().min(1).max(128).openapi({ example: 'inv_4fQ0cZ2mUe9tYh1rVb7kLw' }),
    // Length and content are checked by the password policy, which says which rule a refusal breaks;
    // this bound only stops a huge body (a code point is at most two UTF-16 units).
    password: z
      .string()
      .min(1)
      .max(PASSWORD_MAX_LENGTH * 2)
      .openapi({
        description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters (Unicode code points), any characters, no composition rules (NIST SP 800-63B). Refused, as \`invalid_parameter\` with \`password_rule\`, when it is a common or breached password or a simple variation of one (\`common_password\`), one character repeated (\`repeated_character\`), holds the e-mail address (\`contains_email\`) or the tenant's name (\`contains_tenant_name\`), or is too short or long (\`too_short\`, \`too_long\`).`,
      }),
  })
  .openapi('AcceptInvitationRequest');

export const acceptInvitationRoute = createRoute({
  operationId: 'acceptInvitation',
  method: 'post',
  path: '/v1/console/accept-invitation',
  tags: ['Console'],
  summary: 'Accept an invitation: choose a password',
  // Explicitly public: the invitation token in the body is the credential.
  security: [],
  description:
    'The invited person sends the `invitation_token` their admin received (once, within 7 days) and a password of their own; the user becomes `active` and logs in with `POST /v1/console/login`. The token works once.',
  request: { body: { required: true, content: { 'application/json': { schema: AcceptInvitationBody } } } },
  responses: {
    200: {
      description: 'The now active user',
      content: { 'application/json': { schema: TenantUserSchema } },
    },
    ...errorResponses(
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'resource_missing',
      'invitation_expired',
      'user_disabled',
      'tenant_suspended',
    ),
  },
});

export function registerAcceptInvitation(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...acceptInvitationRoute, middleware: [jsonBody()] }, async (c) => {
    const { invitation_token: token, password } = c.req.valid('json');
    const tokenHash = await hashInvitationToken(token);
    const user = await findUserByInvitationToken(deps.db, tokenHash);
    const missing = () =>
      new ApiError('resource_missing', 'This invitation does not exist or has been used.', {
        param: 'invitation_token',
      });
    if (!user) throw missing();
    if (user.status === 'disabled') throw new ApiError('user_disabled', 'This user is disabled.');
    if (user.status !== 'invited') throw missing();
    if (user.tenant_status !== 'active') throw new ApiError('tenant_suspended', 'The tenant is suspended.');
    const now = deps.clock.now();
    if (!user.invitation_expires_at || user.invitation_expires_at <= now) {
      throw new ApiError('invitation_expired', 'This invitation has expired; ask your admin for a new one.', {
        param: 'invitation_token',
      });
    }
    const refusal = await checkPassword(password, { email: user.email, tenantName: user.tenant_name });
    if (refusal) {
      throw new ApiError('invalid_parameter', refusal.detail, {
        param: 'password',
        extensions: { password_rule: refusal.rule },
      });
    }
    const passwordHash = await deps.passwords.hash(password);
    const row = await deps.db.transaction(async (tx) => {
      // Compare-and-set on the token hash: of two requests with the same token, only one activates.
      const accepted = await acceptInvitation(tx, user.id, tokenHash, passwordHash, now);
      if (!accepted) throw missing();
      await recordAuditEvent(tx, deps, auditOriginOf(c, deps), {
        action: 'user.invitation_accepted',
        tenantId: accepted.tenant_id,
        actor: { type: 'user', id: accepted.id },
        target: { type: 'user', id: accepted.id },
      });
      return accepted;
    });
    return c.json(toTenantUserObject(row), 200);
  });
}
