import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import type { RouteKit } from '../route-kit.ts';
import { registerConsoleLoginSecondFactor } from './console-login-second-factor.ts';
import { registerDeletePasskey } from './passkey-delete.ts';
import { registerRegisterPasskey } from './passkey-register.ts';
import { registerStartPasskeyRegistration } from './passkey-registration-options.ts';
import { registerRegenerateRecoveryCodes } from './recovery-codes-regenerate.ts';
import { registerGetSecondFactors } from './second-factors-get.ts';
import { registerDeleteTotp } from './totp-delete.ts';
import { registerConfirmTotpEnrolment } from './totp-enrolment-confirm.ts';
import { registerStartTotpEnrolment } from './totp-enrolment-start.ts';

/** Staff second factors (issue #24): the login's second step, enrolment and removal. */
export function registerSecondFactorRoutes(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  registerConsoleLoginSecondFactor(app, kit);
  registerGetSecondFactors(app, kit);
  registerStartTotpEnrolment(app, kit);
  registerConfirmTotpEnrolment(app, kit);
  registerDeleteTotp(app, kit);
  // The options route before the one with a path parameter at the same depth.
  registerStartPasskeyRegistration(app, kit);
  registerRegisterPasskey(app, kit);
  registerDeletePasskey(app, kit);
  registerRegenerateRecoveryCodes(app, kit);
}
