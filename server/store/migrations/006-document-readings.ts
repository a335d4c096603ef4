import type { Migration } from './migration.ts';

export const documentReadingsMigration: Migration = {
  version: 6,
  name: 'document readings; tenant policy for document authenticity and proof-of-address age',
  sql: `
    -- What the vision engine read off one document photo (id_document: MRZ, barcode, portrait faces with
    -- their embeddings; proof_of_address: the page's text). Everything personal is in reading_enc,
    -- encrypted as one JSON document bound to the upload; summary holds only flags, counts and model
    -- names, so the step state and the reviewer's overview need no decryption. A reading belongs to its
    -- upload: deleting the session's uploads (retention) deletes the readings with them.
    -- document_number_index is the blind index of a document number read with complete details, for the
    -- duplicate look-up across sessions (as verify_details.document_number_index).
    create table document_readings (
      upload_id text primary key references verify_uploads (id) on delete cascade,
      tenant_id text not null,
      environment text not null,
      session_id text not null references sessions (id) on delete cascade,
      step text not null,
      reading_enc text not null,
      summary jsonb not null,
      document_number_index text,
      created_at timestamptz not null
    );
    create index document_readings_by_session on document_readings (session_id);
    create index document_readings_by_document_number
      on document_readings (tenant_id, environment, document_number_index)
      where document_number_index is not null;

    -- The tenant's review policy: whether offline document checks may pass document authenticity on their
    -- own, and how old a proof of address may be.
    alter table tenants add column document_authenticity text not null default 'offline_checks';
    alter table tenants add column proof_of_address_max_age_days integer not null default 92;
  `,
};
