import type { Migration } from './migration.ts';

/**
 * Failed console logins keep no personal value (issue 24): the typed e-mail becomes a keyed digest (the
 * field cipher's blind index, its own purpose) and the caller's address its network (/24 or /48), as the
 * audit log keeps them. The old rows held both in plaintext; they cannot be digested in SQL (the key is
 * not in the database), so they are dropped. They only ever served the throttle of the last hour and
 * were purged after a day: dropping them forgets at most that.
 */
export const loginFailureDigestsMigration: Migration = {
  version: 15,
  name: 'login failures: keyed account digests and networks',
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
  `,
};
