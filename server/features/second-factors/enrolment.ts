import type { AppDeps } from '../../app-deps.ts';
import type { Principal } from '../../http/app-env.ts';
import { revokeToken } from '../../store/auth-records.ts';
import {
  type AccessTokenSettings,
  type AuthenticationMethod,
  hasSecondFactorMethod,
} from '../auth/access-tokens.ts';
import { consoleLoginAnswer } from '../auth/console-login-answer.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { ApiError } from '../../errors/api-error.ts';
import { hasSecondFactor, replaceRecoveryCodes, secondFactorSummary } from '../../store/second-factors.ts';
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
 * Changing second factors once the user has one takes a session that proved one (the token's `amr`): a
 * password-only token (stolen, or issued before the user enrolled) cannot swap the authenticator for
 * another or strip the account of its factors. Refused with 403 `second_factor_required`.
 */
export async function assertMayChangeSecondFactors(sql: SqlClient, principal: Principal): Promise<void> {
  if (principal.token && hasSecondFactorMethod(principal.token)) return;
  const userId = (principal.user as NonNullable<Principal['user']>).id;
  if (hasSecondFactor(await secondFactorSummary(sql, userId))) {
    throw new ApiError(
      'second_factor_required',
      'This session was opened with the password alone: log in again with your second factor to change your second factors.',
    );
  }
}

/**
 * The user has just proved a second factor with a token that had proved none (a password-only login, or
 * one restricted to enrolment): that token is revoked and one that carries the factor returned in its
 * place, so the session can go on to change factors and reach what a tenant requirement guards. Null
 * when the token already proved a second factor.
 */
export async function loginAfterEnrolment(
  deps: Pick<AppDeps, 'db' | 'config'>,
  tokenSettings: AccessTokenSettings,
  principal: Principal,
  method: AuthenticationMethod,
  now: Date,
) {
  const { token, user } = principal;
  if (!token || !user || hasSecondFactorMethod(token)) return null;
  await revokeToken(deps.db, token.jti, token.expiresAt);
  return consoleLoginAnswer(
    deps,
    tokenSettings,
    { id: user.id, tenant_id: principal.tenantId, email: user.email, role: user.role },
    now,
    { amr: ['pwd', method], enrolmentOnly: false },
  );
}
