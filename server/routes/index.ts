import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-env.ts';
import type { RouteKit } from '../http/route-kit.ts';
import { registerApiKeys } from './api-keys.ts';
import { registerConsoleLogin } from './console-login.ts';
import { registerConsoleLogout } from './console-logout.ts';
import { registerGetMe } from './me-get.ts';
import { registerWebhookRoutes } from './webhooks-routes.ts';
import { registerCancelSession } from './sessions-cancel.ts';
import { registerCreateSession } from './sessions-create.ts';
import { registerGetSession } from './sessions-get.ts';
import { registerListSessions } from './sessions-list.ts';
import { registerGetSessionResult } from './sessions-result.ts';
import { registerSubmitSession } from './sessions-submit.ts';
import { registerRefreshVerifyUrl } from './sessions-verify-url.ts';
import { registerGetTenant } from './tenant-get.ts';
import { registerUpdateTenant } from './tenant-update.ts';

/** Every /v1 operation, one registration per file. */
export function registerV1Routes(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  registerConsoleLogin(app, kit);
  registerConsoleLogout(app, kit);
  registerGetMe(app, kit);
  registerApiKeys(app, kit);
  registerGetTenant(app, kit);
  registerUpdateTenant(app, kit);
  registerCreateSession(app, kit);
  registerListSessions(app, kit);
  registerGetSession(app, kit);
  registerCancelSession(app, kit);
  registerSubmitSession(app, kit);
  registerGetSessionResult(app, kit);
  registerRefreshVerifyUrl(app, kit);
  registerWebhookRoutes(app, kit);
}
