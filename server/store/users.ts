import type { Role } from '../domain/capabilities.ts';
import type { ListPosition } from '../http/list-page.ts';
import type { Page } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** `invited` until the invitation is accepted; a `disabled` user can neither log in nor use a token. */
export const USER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  password_hash: string;
  role: Role;
  status: UserStatus;
  /** SHA-256 of the invitation token while one is open; cleared when it is accepted. */
  invitation_token_hash: string | null;
  invitation_expires_at: Date | null;
  invited_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface UserWithTenant extends UserRow {
  tenant_name: string;
  tenant_status: string;
}

export async function insertUser(
  sql: SqlClient,
  user: { id: string; tenantId: string; email: string; passwordHash: string; role: Role; now: Date },
): Promise<void> {
  await sql.query(
    `insert into users (id, tenant_id, email, password_hash, role, status, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'active', $6, $6)`,
    [user.id, user.tenantId, user.email, user.passwordHash, user.role, user.now],
  );
}

/**
 * The accounts of an e-mail address, one per tenant it belongs to (addresses are unique per tenant,
 * users_email_per_tenant; only that tenant's when `tenantId` is given), oldest first, at most `limit`.
 */
export async function findUsersByEmail(
  sql: SqlClient,
  email: string,
  options: { tenantId?: string | undefined; limit: number },
): Promise<UserWithTenant[]> {
  return sql.query<UserWithTenant>(
    `select u.*, t.name as tenant_name, t.status as tenant_status
       from users u join tenants t on t.id = u.tenant_id
      where lower(u.email) = lower($1) and ($2::text is null or u.tenant_id = $2)
      order by u.created_at, u.id limit $3`,
    [email, options.tenantId ?? null, options.limit],
  );
}

/** One round trip for every Bearer request: the user, its tenant, and whether the token was revoked. */
export async function findUserForToken(
  sql: SqlClient,
  userId: string,
  jti: string,
): Promise<(UserWithTenant & { token_revoked: boolean; tenant_requires_second_factor: boolean }) | null> {
  const rows = await sql.query<
    UserWithTenant & { token_revoked: boolean; tenant_requires_second_factor: boolean }
  >(
    `select u.*, t.name as tenant_name, t.status as tenant_status,
            t.require_second_factor as tenant_requires_second_factor,
            exists (select 1 from revoked_tokens r where r.jti = $2) as token_revoked
       from users u join tenants t on t.id = u.tenant_id where u.id = $1`,
    [userId, jti],
  );
  return rows[0] ?? null;
}

/** A user of this tenant; another tenant's is as unknown as a made-up id. */
export async function findTenantUser(sql: SqlClient, tenantId: string, id: string): Promise<UserRow | null> {
  const rows = await sql.query<UserRow>('select * from users where tenant_id = $1 and id = $2', [
    tenantId,
    id,
  ]);
  return rows[0] ?? null;
}

/** The list cursor of a tenant's user. */
export async function findTenantUserPosition(
  sql: SqlClient,
  tenantId: string,
  id: string,
): Promise<ListPosition | null> {
  const rows = await sql.query<ListPosition>(
    'select id, created_at from users where tenant_id = $1 and id = $2',
    [tenantId, id],
  );
  return rows[0] ?? null;
}

export interface UserFilters {
  statuses?: UserStatus[] | undefined;
  roles?: Role[] | undefined;
}

/** A tenant's users, newest first, one extra row fetched to know whether more exist. */
export async function listTenantUsers(
  sql: SqlClient,
  tenantId: string,
  filters: UserFilters,
  page: Page,
): Promise<{ rows: UserRow[]; hasMore: boolean }> {
  const where: string[] = ['tenant_id = $1'];
  const params: unknown[] = [tenantId];
  if (filters.statuses?.length) {
    params.push(filters.statuses);
    where.push(`status = any($${params.length}::text[])`);
  }
  if (filters.roles?.length) {
    params.push(filters.roles);
    where.push(`role = any($${params.length}::text[])`);
  }
  let order = 'created_at desc, id desc';
  if (page.after) {
    params.push(page.after.created_at, page.after.id);
    where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
  } else if (page.before) {
    params.push(page.before.created_at, page.before.id);
    where.push(`(created_at, id) > ($${params.length - 1}, $${params.length})`);
    order = 'created_at asc, id asc';
  }
  params.push(page.limit + 1);
  const rows = await sql.query<UserRow>(
    `select * from users where ${where.join(' and ')} order by ${order} limit $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  return { rows: page.before ? pageRows.reverse() : pageRows, hasMore };
}

export interface NewInvitedUser {
  id: string;
  tenantId: string;
  email: string;
  /** A hash of a random password nobody knows: the account cannot log in until the invitation is accepted. */
  passwordHash: string;
  role: Role;
  invitationTokenHash: string;
  invitationExpiresAt: Date;
  invitedBy: string;
  now: Date;
}

/**
 * Inserts an invited user; null when the e-mail address already has an account in this tenant. Addresses
 * are unique per tenant (users_email_per_tenant): an address with an account in another tenant gets a
 * second, separate account here, so the answer says nothing about other tenants.
 */
export async function insertInvitedUser(sql: SqlClient, user: NewInvitedUser): Promise<UserRow | null> {
  const rows = await sql.query<UserRow>(
    `insert into users (id, tenant_id, email, password_hash, role, status, invitation_token_hash,
       invitation_expires_at, invited_by, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'invited', $6, $7, $8, $9, $9)
     on conflict do nothing
     returning *`,
    [
      user.id,
      user.tenantId,
      user.email,
      user.passwordHash,
      user.role,
      user.invitationTokenHash,
      user.invitationExpiresAt,
      user.invitedBy,
      user.now,
    ],
  );
  return rows[0] ?? null;
}

/**
 * Locks the tenant's active admins until the transaction ends and returns their ids, so two admins demoting
 * or disabling each other at once cannot both pass the "one admin must remain" check.
 */
export async function lockActiveTenantAdmins(sql: SqlClient, tenantId: string): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `select id from users where tenant_id = $1 and role = 'tenant_admin' and status = 'active'
      order by id for update`,
    [tenantId],
  );
  return rows.map((row) => row.id);
}

export interface UserChanges {
  role?: Role | undefined;
  /** true disables; false re-enables (back to `invited` while the invitation is still open). */
  disabled?: boolean | undefined;
}

export async function updateTenantUser(
  sql: SqlClient,
  tenantId: string,
  id: string,
  changes: UserChanges,
  now: Date,
): Promise<UserRow | null> {
  const params: unknown[] = [tenantId, id, now];
  const sets = ['updated_at = $3'];
  if (changes.role !== undefined) {
    params.push(changes.role);
    sets.push(`role = $${params.length}`);
  }
  if (changes.disabled === true) sets.push(`status = 'disabled'`);
  if (changes.disabled === false) {
    sets.push(
      `status = case when status <> 'disabled' then status when invitation_token_hash is not null then 'invited' else 'active' end`,
    );
  }
  const rows = await sql.query<UserRow>(
    `update users set ${sets.join(', ')} where tenant_id = $1 and id = $2 returning *`,
    params,
  );
  return rows[0] ?? null;
}

/** Replaces an invited user's token (the old one stops working); null unless the user is still invited. */
export async function replaceInvitation(
  sql: SqlClient,
  tenantId: string,
  id: string,
  invitation: { tokenHash: string; expiresAt: Date; now: Date },
): Promise<UserRow | null> {
  const rows = await sql.query<UserRow>(
    `update users set invitation_token_hash = $3, invitation_expires_at = $4, updated_at = $5
      where tenant_id = $1 and id = $2 and status = 'invited' returning *`,
    [tenantId, id, invitation.tokenHash, invitation.expiresAt, invitation.now],
  );
  return rows[0] ?? null;
}

export async function findUserByInvitationToken(
  sql: SqlClient,
  tokenHash: string,
): Promise<UserWithTenant | null> {
  const rows = await sql.query<UserWithTenant>(
    `select u.*, t.name as tenant_name, t.status as tenant_status
       from users u join tenants t on t.id = u.tenant_id where u.invitation_token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/**
 * Sets the password of an invited user and activates it, once: the token hash must still be the one
 * presented (compare-and-set), and it is cleared in the same statement.
 */
export async function acceptInvitation(
  sql: SqlClient,
  id: string,
  tokenHash: string,
  passwordHash: string,
  now: Date,
): Promise<UserRow | null> {
  const rows = await sql.query<UserRow>(
    `update users set password_hash = $3, status = 'active', invitation_token_hash = null,
            invitation_expires_at = null, updated_at = $4
      where id = $1 and invitation_token_hash = $2 and status = 'invited' returning *`,
    [id, tokenHash, passwordHash, now],
  );
  return rows[0] ?? null;
}
