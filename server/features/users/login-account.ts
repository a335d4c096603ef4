import type { AppDeps } from '../../app-deps.ts';
import { findUsersByEmail, type UserWithTenant } from '../../store/users.ts';

/**
 * Which account a console login opens (issue 24). E-mail addresses are unique per tenant, so one address
 * may have an account in several tenants, each with its own password. The login names the tenant with
 * `tenant_id`, or not: then the password is tried against each of the address's accounts and opens the
 * one it belongs to. Only when it opens several (the same password chosen in two tenants) must the
 * caller choose, and only then, having proved the password, is it told which tenants.
 */

/** Accounts tried without `tenant_id`: bounds the Argon2 work one request can cause. */
export const MAX_ACCOUNTS_TRIED = 10;

export type PasswordMatch =
  | { kind: 'none' }
  | { kind: 'one'; user: UserWithTenant }
  | { kind: 'several'; tenants: { tenant_id: string; name: string }[] };

/**
 * Verifying against this when the e-mail is unknown makes both failures cost the same Argon2 time, so
 * response timing does not reveal which addresses have accounts.
 */
let decoyHash: Promise<string> | undefined;

export async function matchPassword(
  deps: Pick<AppDeps, 'db' | 'passwords'>,
  email: string,
  password: string,
  tenantId: string | undefined,
): Promise<PasswordMatch> {
  const accounts = await findUsersByEmail(deps.db, email.trim(), { tenantId, limit: MAX_ACCOUNTS_TRIED });
  if (accounts.length === 0) {
    decoyHash ??= deps.passwords.hash('decoy password that matches no account');
    await deps.passwords.verify(await decoyHash, password);
    return { kind: 'none' };
  }
  // Side by side (Argon2 runs on the thread pool): an address with a few accounts answers in about the
  // time of one, so the answer's timing says little about how many tenants it belongs to.
  const valid = await Promise.all(
    accounts.map((account) => deps.passwords.verify(account.password_hash, password)),
  );
  const matched = accounts.filter((_, index) => valid[index]);
  const [first, ...others] = matched;
  if (!first) return { kind: 'none' };
  if (others.length === 0) return { kind: 'one', user: first };
  return {
    kind: 'several',
    tenants: matched.map((account) => ({ tenant_id: account.tenant_id, name: account.tenant_name })),
  };
}
