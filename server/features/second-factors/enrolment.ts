import type { AppDeps } from '../../app-deps.ts';
import type { Principal } from '../../http/app-env.ts';
import { revokeToken } from '../../store/auth-records.ts';
import type { AccessTokenSettings, AuthenticationMethod } from '../auth/access-tokens.ts';
import { consoleLoginAnswer } from '../auth/console-login-answer.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { replaceRecoveryCodes, secondFactorSummary } from '../../store/second-factors.ts';
import { generateRecoveryCodes, recoveryCodeDigest } from './recovery-codes.ts';

/**
 * Issues ten new recovery codes, replacing any earlier ones, and returns them in clear: the only time
 * they are ever shown. Only their keyed digests are stored.
 */
export async function issueRecoveryCodes(
  sql: SqlClient,
  deps: Pick<AppDeps, 'cipher'>,
  userId: string,
  now: Date,
): Promise<string[]> {
  const codes = generateRecoveryCodes();
  const digests = await Promise.all(codes.map((code) => recoveryCodeDigest(deps.cipher, userId, code)));
  await replaceRecoveryCodes(sql, userId, digests, now);
  return codes;
}

/**
 * After a first factor is enrolled the user gets recovery codes, so that losing the phone or the key does
 * not lock them out; a user who still has unused codes keeps them (null: nothing new to show).
 */
export async function recoveryCodesForNewFactor(
  sql: SqlClient,
  deps: Pick<AppDeps, 'cipher'>,
  userId: string,
  now: Date,
): Promise<string[] | null> {
  const summary = await secondFactorSummary(sql, userId);
  if (summary.unusedRecoveryCodes > 0) return null;
  return issueRecoveryCodes(sql, deps, userId, now);
}

/**
 * A member whose token was restricted to enrolment has just proved a second factor: that token is revoked
 * and a full one returned in its place. Null for an ordinary token (nothing to upgrade).
 */
export async function loginAfterEnrolment(
  deps: Pick<AppDeps, 'db' | 'config'>,
  tokenSettings: AccessTokenSettings,
  principal: Principal,
  method: AuthenticationMethod,
  now: Date,
) {
  const { token, user } = principal;
  if (!token?.enrolmentOnly || !user) return null;
  await revokeToken(deps.db, token.jti, token.expiresAt);
  return consoleLoginAnswer(
    deps,
    tokenSettings,
    { id: user.id, tenant_id: principal.tenantId, email: user.email, role: user.role },
    now,
    { amr: ['pwd', method], enrolmentOnly: false },
  );
}
