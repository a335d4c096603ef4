import { z } from '@hono/zod-openapi';
import { CAPABILITIES, ROLES } from '../../../domain/capabilities.ts';

export const UserSchema = z
  .object({
    object: z.literal('user'),
    user_id: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    tenant_id: z.string(),
  })
  .openapi('User');

export const CapabilityList = z.array(z.enum(CAPABILITIES));

export function toUserObject(user: {
  id: string;
  email: string;
  role: (typeof ROLES)[number];
  tenant_id: string;
}) {
  return {
    object: 'user' as const,
    user_id: user.id,
    email: user.email,
    role: user.role,
    tenant_id: user.tenant_id,
  };
}
