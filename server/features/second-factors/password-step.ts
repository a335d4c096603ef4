import type { AppDeps } from '../../app-deps.ts';
import type { Role } from '../../domain/capabilities.ts';
import { secondFactorSummary, hasSecondFactor } from '../../store/second-factors.ts';
import { findTenant } from '../../store/tenants.ts';
import type { AccessTokenSettings } from '../auth/access-tokens.ts';
import { consoleLoginAnswer } from '../auth/console-login-answer.ts';
import { openLoginChallenge } from './login-challenge.ts';

/**
 * What a right password earns (issue #24): a user with a second factor gets a short-lived challenge to
 * complete with it, never tokens; a member of a tenant that requires a second factor and has none gets a
 * token restricted to enrolling one; anyone else, a full token.
 */
export async function answerPasswordStep(
  deps: Pick<AppDeps, 'db' | 'ids' | 'config'>,
  tokenSettings: AccessTokenSettings,
  user: { id: string; tenant_id: string; email: string; role: Role },
  now: Date,
) {
  const summary = await secondFactorSummary(deps.db, user.id);
  if (hasSecondFactor(summary)) return openLoginChallenge(deps, user.id, summary, now);
  const tenant = await findTenant(deps.db, user.tenant_id);
  return consoleLoginAnswer(deps, tokenSettings, user, now, {
    amr: ['pwd'],
    enrolmentOnly: tenant?.require_second_factor === true,
  });
}
