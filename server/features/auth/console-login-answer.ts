import type { AppDeps } from '../../app-deps.ts';
import { randomBase62 } from '../../crypto/primitives.ts';
import { capabilitiesOfRole, defaultPathOfRole, type Role } from '../../domain/capabilities.ts';
import {
  type AccessTokenSettings,
  type AuthenticationMethod,
  SECOND_FACTOR_ENROLMENT_SCOPE,
  signAccessToken,
} from './access-tokens.ts';

export interface LoginUser {
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
}

/**
 * The answer of a completed login (password alone, or password and second factor): a new access token and
 * what the console needs to show. `enrolmentOnly` marks the token of a member who must enrol a second
 * factor first: it reaches the enrolment operations and nothing else, and the console goes straight there.
 */
export async function consoleLoginAnswer(
  deps: Pick<AppDeps, 'config'>,
  tokenSettings: AccessTokenSettings,
  user: LoginUser,
  now: Date,
  login: { amr: readonly AuthenticationMethod[]; enrolmentOnly: boolean },
) {
  const expiresIn = deps.config.accessTokenTtlSeconds;
  const accessToken = await signAccessToken(
    tokenSettings,
    {
      userId: user.id,
      tenantId: user.tenant_id,
      jti: randomBase62(128),
      expiresAt: new Date(now.getTime() + expiresIn * 1000),
      amr: login.amr,
      ...(login.enrolmentOnly ? { scope: SECOND_FACTOR_ENROLMENT_SCOPE } : {}),
    },
    now,
  );
  return {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: expiresIn,
    user: {
      object: 'user' as const,
      user_id: user.id,
      email: user.email,
      role: user.role,
      tenant_id: user.tenant_id,
    },
    capabilities: login.enrolmentOnly ? [] : [...capabilitiesOfRole(user.role)],
    default_path: defaultPathOfRole(user.role),
    ...(login.enrolmentOnly ? { second_factor_enrolment_required: true as const } : {}),
  };
}
