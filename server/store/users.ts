import type { Role } from '../domain/capabilities.ts';
import type { SqlClient } from './sql-client.ts';

export interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  password_hash: string;
  role: Role;
  status: string;
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

export async function findUserByEmail(sql: SqlClient, email: string): Promise<UserWithTenant | null> {
  const rows = await sql.query<UserWithTenant>(
    `select u.*, t.name as tenant_name, t.status as tenant_status
       from users u join tenants t on t.id = u.tenant_id where lower(u.email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

/** One round trip for every Bearer request: the user, its tenant, and whether the token was revoked. */
export async function findUserForToken(
  sql: SqlClient,
  userId: string,
  jti: string,
): Promise<(UserWithTenant & { token_revoked: boolean }) | null> {
  const rows = await sql.query<UserWithTenant & { token_revoked: boolean }>(
    `select u.*, t.name as tenant_name, t.status as tenant_status,
            exists (select 1 from revoked_tokens r where r.jti = $2) as token_revoked
       from users u join tenants t on t.id = u.tenant_id where u.id = $1`,
    [userId, jti],
  );
  return rows[0] ?? null;
}
