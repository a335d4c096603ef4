import type { Migration } from './migration.ts';

/**
 * The tenant's number of attempts per step (issue #22): how many judged tries an end-user gets at each
 * step of a new session before it is rejected with `attempts_exhausted`. 3 was the fixed number before;
 * the check keeps the column to what the API accepts.
 */
export const attemptsPerStepMigration: Migration = {
  version: 14,
  name: 'tenants: attempts per step',
  sql: `
    alter table tenants add column attempts_per_step integer not null default 3
      check (attempts_per_step between 1 and 10);
  `,
};
