import type { Migration } from './migration.ts';

/**
 * Staff accounts that reveal nothing across tenants (issue 24):
 *
 * - Failed console logins keep no personal value: the typed e-mail becomes a keyed digest (the field
 *   cipher's blind index, its own purpose) and the caller's address its network (/24 or /48), as the
 *   audit log keeps them. The old rows held both in plaintext; they cannot be digested in SQL (the key is
 *   not in the database), so they are dropped. They only ever served the throttle of the last hour and
 *   were purged after a day: dropping them forgets at most that.
 * - E-mail addresses are unique per tenant, not across the service: an account is a membership of one
 *   tenant, with its own password, so inviting an address that has an account elsewhere is answered
 *   exactly like inviting a new one (it was 409 `email_in_use`, which told any tenant admin who has an
 *   account in some other tenant). The login finds the account by e-mail and password, or by tenant.
 */
export const staffAccountPrivacyMigration: Migration = {
  version: 15,
  name: 'login failures as keyed digests; user e-mails unique per tenant',
  sql: `
    drop table login_failures;
    create table login_failures (
      account_key text not null,
      network text not null,
      failed_at timestamptz not null
    );
    create index login_failures_by_account on login_failures (account_key, network, failed_at);
    create index login_failures_by_network on login_failures (network, failed_at);
    create index login_failures_by_age on login_failures (failed_at);

    drop index users_email_key;
    create unique index users_email_per_tenant on users (tenant_id, lower(email));
    create index users_by_email on users (lower(email));
  `,
};
