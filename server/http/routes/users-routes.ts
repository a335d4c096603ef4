import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import type { RouteKit } from '../route-kit.ts';
import { registerGetUser } from './users-get.ts';
import { registerAcceptInvitation } from './users-invitation-accept.ts';
import { registerReissueInvitation } from './users-invitation-reissue.ts';
import { registerInviteUser } from './users-invite.ts';
import { registerListUsers } from './users-list.ts';
import { registerUpdateUser } from './users-update.ts';

/** Console user management (tenant admins) and the invitee's side of an invitation, one file each. */
export function registerUserRoutes(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  registerListUsers(app, kit);
  registerInviteUser(app, kit);
  registerGetUser(app, kit);
  registerUpdateUser(app, kit);
  registerReissueInvitation(app, kit);
  registerAcceptInvitation(app, kit);
}
