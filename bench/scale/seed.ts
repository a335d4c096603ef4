import type pg from 'pg';

/**
 * Bulk seeding for the scale bench, all in set-based SQL (generate_series, data-modifying CTEs): no row
 * crosses the wire, so a million sessions seed in minutes on two cores.
 *
 * The data is shaped like a running deployment, not like a uniform sample:
 * - four tenants of very different sizes (70 / 20 / 9 / 1 % of sessions), 85 % production and 15 % sandbox;
 * - created_at over the last 90 days, denser towards today (growth);
 * - statuses that follow age: sessions younger than a day may still be open (created, collecting,
 *   processing), older ones are settled (approved 68 %, rejected 9 %, expired 18 %, cancelled 3.5 %) with
 *   a review backlog of 1.5 %;
 * - countries skewed (US, GB, DE, … then a long tail), 90 % user flow, tiers 50 / 40 / 10 %;
 * - what the retention sweepers leave behind in steady state: events and webhook deliveries only for the
 *   last 32 days (kept 30 days, plus two days of purge backlog), abandoned sessions older than 30 days and
 *   decided ones older than 90 days already marked evidence-deleted;
 * - one review job per submitted session (open only for the ones still processing), an identity for a
 *   third of approved user-flow sessions (their biometric reference), audit events over 400 days.
 *
 * Encrypted columns hold a FIXED dummy ciphertext of the real format and length (`v1.<iv>.<body>`) and
 * blind indexes a digest of the real length: the bench measures query plans and row widths, never
 * decryption, so no key is involved. Evidence (uploads, readings, blobs) and webhook attempts are not seeded:
 * no measured query reads them.
 */

const DUMMY_REF_ENC = `v1.${'A'.repeat(16)}.${'B'.repeat(48)}`;
const DUMMY_METADATA_ENC = `v1.${'A'.repeat(16)}.${'C'.repeat(160)}`;
const DUMMY_ATTRIBUTES_ENC = `v1.${'A'.repeat(16)}.${'D'.repeat(420)}`;
const USER_STEPS = ['consent', 'id_document', 'liveness'];
const BUSINESS_STEPS = ['consent', 'business_details', 'id_document', 'liveness'];

export interface SeedTenant {
  id: string;
  /** Share of all sessions. */
  share: number;
}

export const SEED_TENANTS: readonly SeedTenant[] = [
  { id: 'ten_scale_big', share: 0.7 },
  { id: 'ten_scale_mid', share: 0.2 },
  { id: 'ten_scale_small', share: 0.09 },
  { id: 'ten_scale_tiny', share: 0.01 },
];

/** Tenants, their webhook endpoints (the big one has two, the small one none). Run once. */
export async function seedTenants(client: pg.Client): Promise<void> {
  for (const tenant of SEED_TENANTS) {
    await client.query(
      `insert into tenants (id, name, created_at, updated_at) values ($1, $1, now() - interval '400 days', now())`,
      [tenant.id],
    );
  }
  const endpoints: [string, string, string, string[]][] = [
    ['wh_scale_big_all', 'ten_scale_big', 'production', ['*']],
    ['wh_scale_big_decisions', 'ten_scale_big', 'production', ['session.approved', 'session.rejected']],
    ['wh_scale_big_test', 'ten_scale_big', 'sandbox', ['*']],
    ['wh_scale_mid_all', 'ten_scale_mid', 'production', ['*']],
    ['wh_scale_tiny_all', 'ten_scale_tiny', 'production', ['*']],
  ];
  for (const [id, tenant, environment, events] of endpoints) {
    await client.query(
      `insert into webhooks (id, tenant_id, environment, url, events, status, secret_enc, created_at, updated_at)
       values ($1, $2, $3, 'https://hooks.example.com/idv', $4, 'active', $5, now() - interval '400 days', now())`,
      [id, tenant, environment, JSON.stringify(events), DUMMY_REF_ENC],
    );
  }
}

/**
 * Sessions numbered from+1 … to, with their events, deliveries, review jobs and identities, in one
 * statement (chained data-modifying CTEs). Called in chunks so no statement holds millions of rows.
 */
const SEED_CHUNK_SQL = `
with params as (select now() as t0),
raw as (
  select n,
         random() as r_tenant, random() as r_env, random() as r_age, random() as r_status,
         random() as r_country, random() as r_flow, random() as r_tier, random() as r_ref,
         random() as r_meta, random() as r_secs
    from generate_series($1::bigint + 1, $2::bigint) as n
),
shaped as (
  select n, r_status, r_ref, r_meta, r_secs,
         case when r_tenant < 0.70 then 'ten_scale_big' when r_tenant < 0.90 then 'ten_scale_mid'
              when r_tenant < 0.99 then 'ten_scale_small' else 'ten_scale_tiny' end as tenant_id,
         case when r_env < 0.85 then 'production' else 'sandbox' end as environment,
         (select t0 from params) - interval '90 days' * power(r_age, 1.3) as created_at,
         case when r_country < 0.25 then 'US' when r_country < 0.37 then 'GB' when r_country < 0.47 then 'DE'
              when r_country < 0.55 then 'FR' when r_country < 0.61 then 'ES' when r_country < 0.66 then 'IT'
              when r_country < 0.70 then 'NL' when r_country < 0.74 then 'PL' when r_country < 0.79 then 'BR'
              when r_country < 0.85 then 'IN' when r_country < 0.88 then 'NG'
              else (array['CA','AU','MX','AR','SE','NO','DK','FI','IE','PT','BE','AT','CH','CZ','RO','GR',
                          'TR','ZA','KE','EG','JP','KR','SG','PH','ID','VN','TH','NZ','CL','CO'])
                   [1 + floor((r_country - 0.88) / 0.12 * 30)::int] end as country,
         case when r_flow < 0.90 then 'user' else 'business' end as flow,
         case when r_flow >= 0.90 then 'tier2' when r_tier < 0.5 then 'tier1' when r_tier < 0.9 then 'tier2'
              else 'tier3' end as tier
    from raw
),
statused as (
  select *,
         case when created_at > (select t0 from params) - interval '1 day' then
                case when r_status < 0.15 then 'created' when r_status < 0.35 then 'collecting'
                     when r_status < 0.37 then 'processing' when r_status < 0.82 then 'approved'
                     when r_status < 0.88 then 'rejected' when r_status < 0.95 then 'review_required'
                     else 'cancelled' end
              else
                case when r_status < 0.68 then 'approved' when r_status < 0.77 then 'rejected'
                     when r_status < 0.785 then 'review_required' when r_status < 0.965 then 'expired'
                     else 'cancelled' end end as status
    from shaped
),
timed as (
  select *,
         case when status in ('processing','approved','rejected','review_required')
              then created_at + interval '1 second' * (120 + r_secs * 480) end as submitted_at,
         case when status in ('approved','rejected','review_required')
              then created_at + interval '1 second' * (125 + r_secs * 600) end as decided_at
    from statused
),
new_sessions as (
  insert into sessions (id, tenant_id, environment, status, country, flow, tier, external_user_ref_enc,
         external_user_ref_index, metadata_enc, required_steps, steps, verify_token_hash, verify_token_nonce,
         decision, expires_at, created_at, updated_at, submitted_at, decided_at, evidence_deleted_at)
  select 'sess_' || substr(md5('s' || n), 1, 22), tenant_id, environment, status, country, flow, tier,
         case when r_ref < 0.8 then $3 end,
         case when r_ref < 0.8 then substr(encode(sha256(('ref' || n)::bytea), 'base64'), 1, 43) end,
         case when r_meta < 0.5 then $4 end,
         case when flow = 'user' then $5::jsonb else $6::jsonb end,
         '[]'::jsonb,
         encode(sha256(('tok' || n)::bytea), 'hex'), substr(md5('nonce' || n), 1, 16),
         case when status in ('approved','rejected','review_required') then status end,
         created_at + interval '1 day', created_at,
         coalesce(decided_at, case when status in ('expired','cancelled') then created_at + interval '1 day'
                                   else created_at + interval '1 minute' end),
         submitted_at, decided_at,
         case when (status in ('expired','cancelled') and created_at < (select t0 from params) - interval '31 days')
                or (status in ('approved','rejected') and decided_at < (select t0 from params) - interval '90 days')
              then (select t0 from params) - interval '1 hour' end
    from timed
  returning id, tenant_id, environment, status, flow, external_user_ref_index, created_at, submitted_at,
            decided_at, updated_at
),
kinds as (
  select s.*, k.type, k.at
    from new_sessions s
    cross join lateral (values
      ('session.created', s.created_at),
      ('session.processing', s.submitted_at),
      (case when s.status in ('expired','cancelled') then 'session.' || s.status end, s.updated_at),
      (case when s.status in ('approved','rejected','review_required') then 'session.' || s.status end,
       s.decided_at)
    ) as k(type, at)
   where k.type is not null and k.at is not null
     and s.created_at > (select t0 from params) - interval '32 days'
),
new_events as (
  insert into events (id, tenant_id, environment, type, session_id, payload, created_at, fanned_out_at)
  select 'evt_' || substr(md5(id || type), 1, 22), tenant_id, environment, type, id,
         jsonb_build_object('type', type, 'data', jsonb_build_object('object', 'session', 'id', id,
           'status', status, 'created_at', created_at)),
         least(at, (select t0 from params)),
         case when at < (select t0 from params) - interval '10 minutes' then at + interval '300 milliseconds' end
    from kinds
  returning id, tenant_id, environment, type, created_at, fanned_out_at
),
new_deliveries as (
  insert into webhook_deliveries (id, tenant_id, environment, webhook_id, event_id, event_type, status,
         attempts, next_attempt_at, last_attempt_at, last_response_status, created_at, updated_at)
  select 'dlv_' || substr(md5(w.id || e.id), 1, 22), e.tenant_id, e.environment, w.id, e.id, e.type,
         case when p.r < 0.97 then 'succeeded' when p.r < 0.99 then 'failed' else 'pending' end,
         case when p.r < 0.97 then 1 else 3 end,
         case when p.r >= 0.99 then (select t0 from params) + interval '1 hour' * (p.r - 0.995) * 200 end,
         e.fanned_out_at, case when p.r < 0.97 then 200 else 503 end,
         e.fanned_out_at, e.fanned_out_at
    from new_events e
    join webhooks w on w.tenant_id = e.tenant_id and w.environment = e.environment
      and (w.events @> '["*"]'::jsonb or w.events @> jsonb_build_array(e.type))
    cross join lateral (select random() as r) as p
   where e.fanned_out_at is not null
  returning 1
),
new_jobs as (
  insert into review_jobs (id, tenant_id, environment, session_id, run_at, attempts, outcome, created_at,
         updated_at, finished_at)
  select 'rjob_' || substr(md5('j' || id), 1, 22), tenant_id, environment, id, submitted_at,
         case when status = 'processing' then 0 else 1 end,
         case when status <> 'processing' then status end, submitted_at, coalesce(decided_at, submitted_at),
         decided_at
    from new_sessions where submitted_at is not null
  returning 1
),
new_identities as (
  insert into identities (id, tenant_id, environment, status, flow, tier, external_user_ref_enc,
         external_user_ref_index, attributes_enc, biometric_session_id, latest_session_id, verified_at,
         created_at, updated_at)
  select 'idn_' || substr(md5('i' || id), 1, 22), tenant_id, environment, 'active', flow, 'tier1', $3,
         external_user_ref_index, $7, id, id, decided_at, decided_at, decided_at
    from new_sessions
   where status = 'approved' and flow = 'user' and external_user_ref_index is not null
     and ascii(substr(id, 6, 1)) % 3 = 0
  returning 1
)
select (select count(*) from new_sessions)::int as sessions,
       (select count(*) from new_events)::int as events,
       (select count(*) from new_deliveries)::int as deliveries,
       (select count(*) from new_jobs)::int as jobs,
       (select count(*) from new_identities)::int as identities`;

export interface SeedCounts {
  sessions: number;
  events: number;
  deliveries: number;
  jobs: number;
  identities: number;
}

const CHUNK = 100_000;

/** Adds sessions numbered from+1 … to (and all that goes with them); returns what was written. */
export async function seedSessions(client: pg.Client, from: number, to: number): Promise<SeedCounts> {
  const total: SeedCounts = { sessions: 0, events: 0, deliveries: 0, jobs: 0, identities: 0 };
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    const { rows } = await client.query<SeedCounts>(SEED_CHUNK_SQL, [
      start,
      end,
      DUMMY_REF_ENC,
      DUMMY_METADATA_ENC,
      JSON.stringify(USER_STEPS),
      JSON.stringify(BUSINESS_STEPS),
      DUMMY_ATTRIBUTES_ENC,
    ]);
    const counts = rows[0] as SeedCounts;
    for (const key of Object.keys(total) as (keyof SeedCounts)[]) total[key] += counts[key];
  }
  // Audit events: one per 20 sessions, spread over 400 days so the yearly purge has a backlog to find.
  await client.query(
    `insert into audit_events (id, tenant_id, environment, action, actor_type, actor_id, details, created_at)
     select 'aud_' || substr(md5('a' || n), 1, 22),
            (array['ten_scale_big','ten_scale_big','ten_scale_mid','ten_scale_small'])[1 + (n % 4)::int],
            'production', 'session.viewed', 'user', 'usr_scale', '{}', now() - interval '400 days' * random()
       from generate_series($1::bigint / 20 + 1, $2::bigint / 20) as n`,
    [from, to],
  );
  // What autovacuum does to a table that has settled: statistics, and the visibility map that lets an
  // index-only scan (the stats query's) skip the heap. Without it every plan would be judged on a table
  // no running deployment has.
  await client.query('vacuum analyze');
  return total;
}
