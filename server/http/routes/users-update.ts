import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AuditAction } from '../../features/audit/audit-actions.ts';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import { ROLES } from '../../domain/capabilities.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findTenantUser, lockActiveTenantAdmins, updateTenantUser } from '../../store/users.ts';
import { userMissing } from '../../features/users/user-missing.ts';
import { assertMayGrant, raisesRole } from '../../features/users/role-rules.ts';
import { TenantUserSchema, toTenantUserObject, UserIdParam } from './users-schemas.ts';

const UpdateUserBody = z
  .strictObject({
    role: z.enum(ROLES).optional(),
    disabled: z.boolean().optional().openapi({
      description:
        '`true` disables the user at once: no login, and every token they hold stops working. `false` enables them again.',
    }),
  })
  .openapi('UpdateUserRequest');

export const updateUserRoute = createRoute({
  operationId: 'updateUser',
  method: 'patch',
  path: '/v1/users/{id}',
  tags: ['Users'],
  summary: 'Change a user’s role, or disable or enable them',
  description:
    'Needs `users:write`. Nobody can raise their own role or grant a role with capabilities they lack (403 `insufficient_capability`). The tenant always keeps one active `tenant_admin`: demoting or disabling the last one is 409 `last_tenant_admin`. A change takes effect on the user’s next request.',
  security: [{ ConsoleBearer: [] }],
  request: {
    params: UserIdParam,
    body: { required: true, content: { 'application/json': { schema: UpdateUserBody } } },
  },
  responses: {
    200: { description: 'The updated user', content: { 'application/json': { schema: TenantUserSchema } } },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'resource_missing',
      'last_tenant_admin',
    ),
  },
});

export function registerUpdateUser(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...updateUserRoute, middleware: kit.tenant({ capability: 'users:write', body: 'json' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const changes = c.req.valid('json');
      const principal = c.get('principal');
      if (changes.role === undefined && changes.disabled === undefined) {
        throw new ApiError('missing_parameter', 'Send `role`, `disabled` or both.', { param: 'role' });
      }
      if (changes.role !== undefined) assertMayGrant(changes.role, principal.capabilities, 'role');
      const origin = auditOriginOf(c, deps);
      const row = await deps.db.transaction(async (tx) => {
        // Admins first, then the target: every change locks in the same order, and the count below is
        // the committed one even when two admins demote each other at the same moment.
        const activeAdmins = await lockActiveTenantAdmins(tx, principal.tenantId);
        const before = (await findTenantUser(tx, principal.tenantId, id)) ?? userMissing(id);
        const roleChanges = changes.role !== undefined && changes.role !== before.role;
        if (roleChanges && before.id === principal.user?.id && raisesRole(before.role, changes.role!)) {
          throw new ApiError('insufficient_capability', 'You cannot raise your own role.', { param: 'role' });
        }
        const losesAdmin =
          activeAdmins.includes(before.id) &&
          ((roleChanges && changes.role !== 'tenant_admin') || changes.disabled === true);
        if (losesAdmin && activeAdmins.length <= 1) {
          throw new ApiError(
            'last_tenant_admin',
            'This is the tenant’s last active tenant admin: make another user `tenant_admin` first.',
            { param: changes.disabled === true ? 'disabled' : 'role' },
          );
        }
        const after =
          (await updateTenantUser(tx, principal.tenantId, id, changes, deps.clock.now())) ?? userMissing(id);
        const record = (action: AuditAction, details: Record<string, string>) =>
          recordAuditEvent(tx, deps, origin, {
            action,
            tenantId: principal.tenantId,
            actor: actorOf(principal),
            target: { type: 'user', id },
            details,
          });
        if (after.role !== before.role) {
          await record('user.role_changed', { previous_role: before.role, role: after.role });
        }
        if (after.status !== before.status && (after.status === 'disabled' || before.status === 'disabled')) {
          await record(after.status === 'disabled' ? 'user.disabled' : 'user.enabled', {
            previous_status: before.status,
            status: after.status,
          });
        }
        return after;
      });
      return c.json(toTenantUserObject(row), 200);
    },
  );
}
