import { z } from '@hono/zod-openapi';
import { ROLES } from '../../domain/capabilities.ts';
import { USER_STATUSES, type UserRow } from '../../store/users.ts';

/** A console user as the tenant's admins manage it (the login's `User` plus status and history). */
export const TenantUserSchema = z
  .object({
    object: z.literal('user'),
    user_id: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    tenant_id: z.string(),
    status: z.enum(USER_STATUSES).openapi({
      description:
        '`invited` until the invitation is accepted; `disabled` users can neither log in nor use a token.',
    }),
    invitation_expires_at: z
      .string()
      .nullable()
      .openapi({ description: 'While `invited`: when the open invitation stops working.' }),
    invited_by: z.string().nullable().openapi({ description: 'The user id of the admin who invited them.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('TenantUser');

export const InvitedUserSchema = TenantUserSchema.extend({
  invitation_token: z.string().openapi({
    description:
      'Shown only in this response. The invited person sends it with a password of their choice to `POST /v1/console/accept-invitation`, once, before `invitation_expires_at`. The server sends no e-mail: the console hands the link over.',
    example: 'inv_4fQ0cZ2mUe9tYh1rVb7kLw',
  }),
}).openapi('InvitedUser');

export const UserIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'usr_3kTq9VbX2mLw7Yc0Rj5sNe' }),
});

/** The e-mail address as stored and compared: trimmed and lower-cased. */
export const EmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email())
  .openapi({ example: 'reviewer@tenant.example' });

export function toTenantUserObject(row: UserRow) {
  return {
    object: 'user' as const,
    user_id: row.id,
    email: row.email,
    role: row.role,
    tenant_id: row.tenant_id,
    status: row.status,
    invitation_expires_at:
      row.status === 'invited' ? (row.invitation_expires_at?.toISOString() ?? null) : null,
    invited_by: row.invited_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
