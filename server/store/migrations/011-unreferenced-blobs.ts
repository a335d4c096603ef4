import type { Migration } from './migration.ts';

export const unreferencedBlobsMigration: Migration = {
  version: 11,
  name: 'a journal of evidence blobs no row references yet or any more, so a crash leaves none behind',
  sql: `
    -- An image's bytes are stored before the upload row that names them (never a row without bytes),
    -- and deleted after the rows at retention. A process that dies between the two would leave
    -- ciphertext no row points at, kept for ever. Each such key is written here first, in its own
    -- commit: the upload row's transaction removes it, and the retention sweeper deletes the bytes of
    -- an entry older than any request can take (and the entry).
    create table unreferenced_blobs (
      key text primary key,
      since timestamptz not null
    );
    create index unreferenced_blobs_by_age on unreferenced_blobs (since);
  `,
};
