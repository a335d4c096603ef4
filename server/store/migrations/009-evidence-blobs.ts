import type { Migration } from './migration.ts';

export const evidenceBlobsMigration: Migration = {
  version: 9,
  name: 'evidence blobs in the database, for instances on several machines (IDV_BLOB_STORE=postgres)',
  sql: `
    -- One row per blob and its bytes in 1 MiB chunks, so no single value comes near the 1 GB bytea limit
    -- and a read never builds one huge parameter. The bytes are ciphertext (the app encrypts before it
    -- stores). tenant_id is the key's first segment (keys are tenant/environment/session/upload, as the
    -- file store's directories), so a tenant's evidence can be found without parsing keys.
    create table evidence_blobs (
      key text primary key,
      tenant_id text not null,
      byte_length integer not null,
      chunk_count integer not null,
      stored_at timestamptz not null default now()
    );
    create index evidence_blobs_by_tenant on evidence_blobs (tenant_id);

    create table evidence_blob_chunks (
      key text not null references evidence_blobs (key) on delete cascade,
      chunk integer not null,
      bytes bytea not null,
      primary key (key, chunk)
    );
    -- Ciphertext does not compress: store it out of line without trying (TOAST's default would try).
    alter table evidence_blob_chunks alter column bytes set storage external;
  `,
};
