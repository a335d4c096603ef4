import type { Migration } from './migration.ts';

export const livenessReadingsMigration: Migration = {
  version: 7,
  name: 'liveness readings: what the face models saw per frame, the judgement, the enrolled face reference',
  sql: `
    -- What the face models saw on each frame of a liveness attempt. observation holds measurements only
    -- (faces counted, face size, head angles, eye and mouth openness): no personal value. The face's
    -- embedding is biometric data and is stored encrypted, bound to its challenge and frame; the space
    -- names the embedder, so an embedding is never compared with one of another model. Rows go with
    -- their challenge (retention deletes challenges with the rest of a session's evidence).
    create table liveness_readings (
      challenge_id text not null references liveness_challenges (id) on delete cascade,
      frame_index integer not null,
      tenant_id text not null,
      environment text not null,
      session_id text not null references sessions (id) on delete cascade,
      observation jsonb not null,
      embedding_enc text,
      embedding_space jsonb not null,
      engine jsonb not null,
      created_at timestamptz not null,
      primary key (challenge_id, frame_index)
    );
    create index liveness_readings_by_session on liveness_readings (session_id);

    -- The verdict per action of an attempt judged by the models (measurements and thresholds, no
    -- personal value); null when no model judged it (a cheap gate answered, or no engine is configured).
    alter table liveness_challenges add column judgement jsonb;

    -- The face a later re-verification is compared with: the embedding of the best liveness frame of the
    -- approving session, encrypted, with the embedder's space in the clear so a model change can be found.
    -- It lives and dies with the identity, independent of the session's own evidence retention.
    alter table identities add column face_reference_enc text;
    alter table identities add column face_reference_space jsonb;
  `,
};
