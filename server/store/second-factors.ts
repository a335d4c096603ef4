import type { Role } from '../domain/capabilities.ts';
import type { SqlClient } from './sql-client.ts';

/** What a user has enrolled; the login's password step reads it to decide whether a second step follows. */
export interface SecondFactorSummary {
  totp: boolean;
  passkeys: number;
  unusedRecoveryCodes: number;
}

export async function secondFactorSummary(sql: SqlClient, userId: string): Promise<SecondFactorSummary> {
  const rows = await sql.query<{ totp: boolean; passkeys: number; recovery: number }>(
    `select
       exists (select 1 from user_totp where user_id = $1 and confirmed_at is not null) as totp,
       (select count(*)::int from user_passkeys where user_id = $1) as passkeys,
       (select count(*)::int from user_recovery_codes where user_id = $1 and used_at is null) as recovery`,
    [userId],
  );
  const row = rows[0];
  return { totp: row?.totp ?? false, passkeys: row?.passkeys ?? 0, unusedRecoveryCodes: row?.recovery ?? 0 };
}

/** A user has a second factor once a TOTP authenticator is confirmed or a passkey is registered. */
export function hasSecondFactor(summary: SecondFactorSummary): boolean {
  return summary.totp || summary.passkeys > 0;
}

// --- TOTP -------------------------------------------------------------------------------------------

export interface TotpRow {
  user_id: string;
  secret_enc: string;
  confirmed_at: Date | null;
  last_used_step: string;
  created_at: Date;
}

export async function findConfirmedTotp(sql: SqlClient, userId: string): Promise<TotpRow | null> {
  const rows = await sql.query<TotpRow>(
    'select * from user_totp where user_id = $1 and confirmed_at is not null',
    [userId],
  );
  return rows[0] ?? null;
}

/** Stores a confirmed authenticator, replacing any earlier one; `step` is the step of the code that confirmed it. */
export async function saveConfirmedTotp(
  sql: SqlClient,
  userId: string,
  secretEnc: string,
  step: number,
  now: Date,
): Promise<void> {
  await sql.query(
    `insert into user_totp (user_id, secret_enc, confirmed_at, last_used_step, created_at)
     values ($1, $2, $3, $4, $3)
     on conflict (user_id) do update
       set secret_enc = excluded.secret_enc, confirmed_at = excluded.confirmed_at,
           last_used_step = excluded.last_used_step, created_at = excluded.created_at`,
    [userId, secretEnc, now, step],
  );
}

/**
 * Records that the code of `step` was used. False when a code of this step or a later one was already
 * accepted: the one conditional update makes two concurrent logins with the same code succeed once.
 */
export async function claimTotpStep(sql: SqlClient, userId: string, step: number): Promise<boolean> {
  const rows = await sql.query(
    `update user_totp set last_used_step = $2
      where user_id = $1 and confirmed_at is not null and last_used_step < $2 returning user_id`,
    [userId, step],
  );
  return rows.length === 1;
}

export async function deleteTotp(sql: SqlClient, userId: string): Promise<boolean> {
  const rows = await sql.query('delete from user_totp where user_id = $1 returning user_id', [userId]);
  return rows.length === 1;
}

// --- Recovery codes ---------------------------------------------------------------------------------

/** Replaces every recovery code of the user (used or not) with new ones. */
export async function replaceRecoveryCodes(
  sql: SqlClient,
  userId: string,
  digests: readonly string[],
  now: Date,
): Promise<void> {
  await sql.query('delete from user_recovery_codes where user_id = $1', [userId]);
  await sql.query(
    `insert into user_recovery_codes (user_id, code_digest, created_at)
     select $1, digest, $3 from unnest($2::text[]) as digest`,
    [userId, digests, now],
  );
}

/** Spends a recovery code; false when it is unknown or already used (each works once). */
export async function useRecoveryCode(
  sql: SqlClient,
  userId: string,
  digest: string,
  now: Date,
): Promise<boolean> {
  const rows = await sql.query(
    `update user_recovery_codes set used_at = $3
      where user_id = $1 and code_digest = $2 and used_at is null returning user_id`,
    [userId, digest, now],
  );
  return rows.length === 1;
}

export async function deleteRecoveryCodes(sql: SqlClient, userId: string): Promise<void> {
  await sql.query('delete from user_recovery_codes where user_id = $1', [userId]);
}

// --- Passkeys ---------------------------------------------------------------------------------------

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key_enc: string;
  sign_count: string;
  transports: string[];
  name: string;
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

export async function insertPasskey(
  sql: SqlClient,
  passkey: Omit<PasskeyRow, 'last_used_at' | 'sign_count'> & { sign_count: number },
): Promise<void> {
  await sql.query(
    `insert into user_passkeys
       (id, user_id, credential_id, public_key_enc, sign_count, transports, name, backed_up, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      passkey.id,
      passkey.user_id,
      passkey.credential_id,
      passkey.public_key_enc,
      passkey.sign_count,
      passkey.transports,
      passkey.name,
      passkey.backed_up,
      passkey.created_at,
    ],
  );
}

export async function listPasskeys(sql: SqlClient, userId: string): Promise<PasskeyRow[]> {
  return sql.query<PasskeyRow>('select * from user_passkeys where user_id = $1 order by created_at, id', [
    userId,
  ]);
}

export async function findUserPasskeyByCredentialId(
  sql: SqlClient,
  userId: string,
  credentialId: string,
): Promise<PasskeyRow | null> {
  const rows = await sql.query<PasskeyRow>(
    'select * from user_passkeys where user_id = $1 and credential_id = $2',
    [userId, credentialId],
  );
  return rows[0] ?? null;
}

/**
 * Stores the counter an assertion reported, only if the row still holds the one the check was made
 * against: of two concurrent assertions with the same counter, one wins.
 */
export async function recordPasskeyUse(
  sql: SqlClient,
  id: string,
  previousCount: number,
  newCount: number,
  now: Date,
): Promise<boolean> {
  const rows = await sql.query(
    `update user_passkeys set sign_count = $3, last_used_at = $4
      where id = $1 and sign_count = $2 returning id`,
    [id, previousCount, newCount, now],
  );
  return rows.length === 1;
}

export async function deletePasskey(sql: SqlClient, userId: string, id: string): Promise<boolean> {
  const rows = await sql.query('delete from user_passkeys where user_id = $1 and id = $2 returning id', [
    userId,
    id,
  ]);
  return rows.length === 1;
}

// --- Challenges -------------------------------------------------------------------------------------

export const CHALLENGE_PURPOSES = ['login', 'passkey_registration', 'totp_enrolment'] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

export interface ChallengeRow {
  id: string;
  user_id: string;
  purpose: ChallengePurpose;
  token_digest: string | null;
  webauthn_challenge: string | null;
  secret_enc: string | null;
  failed_attempts: number;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

export async function insertChallenge(
  sql: SqlClient,
  challenge: Pick<
    ChallengeRow,
    | 'id'
    | 'user_id'
    | 'purpose'
    | 'token_digest'
    | 'webauthn_challenge'
    | 'secret_enc'
    | 'created_at'
    | 'expires_at'
  >,
): Promise<void> {
  await sql.query(
    `insert into second_factor_challenges
       (id, user_id, purpose, token_digest, webauthn_challenge, secret_enc, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      challenge.id,
      challenge.user_id,
      challenge.purpose,
      challenge.token_digest,
      challenge.webauthn_challenge,
      challenge.secret_enc,
      challenge.created_at,
      challenge.expires_at,
    ],
  );
}

/** A login challenge by its token's digest, while it is open (not used, not expired). */
export async function findOpenLoginChallenge(
  sql: SqlClient,
  tokenDigest: string,
  now: Date,
): Promise<ChallengeRow | null> {
  const rows = await sql.query<ChallengeRow>(
    `select * from second_factor_challenges
      where token_digest = $1 and purpose = 'login' and consumed_at is null and expires_at > $2`,
    [tokenDigest, now],
  );
  return rows[0] ?? null;
}

/** The user's own open challenge of this purpose, by id. */
export async function findOpenChallenge(
  sql: SqlClient,
  userId: string,
  id: string,
  purpose: ChallengePurpose,
  now: Date,
): Promise<ChallengeRow | null> {
  const rows = await sql.query<ChallengeRow>(
    `select * from second_factor_challenges
      where id = $1 and user_id = $2 and purpose = $3 and consumed_at is null and expires_at > $4`,
    [id, userId, purpose, now],
  );
  return rows[0] ?? null;
}

/** Closes a challenge; false when another request closed it first (each challenge completes once). */
export async function consumeChallenge(sql: SqlClient, id: string, now: Date): Promise<boolean> {
  const rows = await sql.query(
    'update second_factor_challenges set consumed_at = $2 where id = $1 and consumed_at is null returning id',
    [id, now],
  );
  return rows.length === 1;
}

export async function countChallengeFailure(sql: SqlClient, id: string): Promise<void> {
  await sql.query('update second_factor_challenges set failed_attempts = failed_attempts + 1 where id = $1', [
    id,
  ]);
}

/** Wrong second-factor answers of the user on challenges created since `since`, for the rate limit. */
export async function recentSecondFactorFailures(
  sql: SqlClient,
  userId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const rows = await sql.query<{ count: number; oldest: Date | null }>(
    `select coalesce(sum(failed_attempts), 0)::int as count,
            min(created_at) filter (where failed_attempts > 0) as oldest
       from second_factor_challenges where user_id = $1 and created_at > $2`,
    [userId, since],
  );
  return { count: rows[0]?.count ?? 0, oldest: rows[0]?.oldest ?? null };
}

/** Deletes challenges that expired before `before` (the retention sweep: their wrong answers no longer count). */
export async function deleteExpiredChallenges(sql: SqlClient, before: Date): Promise<void> {
  await sql.query('delete from second_factor_challenges where expires_at < $1', [before]);
}

/** The user a login challenge belongs to, with their tenant's state, read again at the second step. */
export async function findChallengeUser(
  sql: SqlClient,
  userId: string,
): Promise<{
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
  status: string;
  tenant_status: string;
  tenant_requires_second_factor: boolean;
} | null> {
  const rows = await sql.query<{
    id: string;
    tenant_id: string;
    email: string;
    role: Role;
    status: string;
    tenant_status: string;
    tenant_requires_second_factor: boolean;
  }>(
    `select u.id, u.tenant_id, u.email, u.role, u.status, t.status as tenant_status,
            t.require_second_factor as tenant_requires_second_factor
       from users u join tenants t on t.id = u.tenant_id where u.id = $1`,
    [userId],
  );
  return rows[0] ?? null;
}
