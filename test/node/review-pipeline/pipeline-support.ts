import assert from 'node:assert/strict';
import type { Role } from '../../../server/domain/capabilities.ts';
import type { ReviewEvidence } from '../../../server/domain/review/index.ts';
import type { EvidenceCollector } from '../../../server/features/review/evidence-collector.ts';
import { createReviewWorker, type ReviewWorkerOptions } from '../../../server/workers/review-worker.ts';
import { listEventsOfSession } from '../../../server/store/events.ts';
import { insertUser } from '../../../server/store/users.ts';
import { json, type TestHarness } from '../support/test-app.ts';

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the harness clock moved by whole days. */
export function dayFrom(h: TestHarness, days: number): string {
  return new Date(h.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/** `YYMMDD`, as an MRZ prints a date. */
function mrzDate(isoDate: string): string {
  return isoDate.slice(2).replaceAll('-', '');
}

/** A birth date that makes the person exactly `years` old (plus a few days) on the harness clock. */
export function bornYearsAgo(h: TestHarness, years: number): string {
  const now = h.clock.now();
  const date = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return new Date(date.getTime() - 5 * DAY_MS).toISOString().slice(0, 10);
}

export interface PersonDetails {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  document_number: string;
  expiry_date: string;
}

/**
 * Evidence of a complete, consistent tier2 user verification: consent, a readable passport whose MRZ
 * agrees with the typed details, an accepted liveness attempt, no duplicates.
 */
export function goodEvidence(h: TestHarness, person: Partial<PersonDetails> = {}): ReviewEvidence {
  const details: PersonDetails = {
    first_name: 'Jane',
    last_name: 'Doe',
    date_of_birth: '1990-04-12',
    document_number: 'C01X00T47',
    expiry_date: dayFrom(h, 3 * 365),
    ...person,
  };
  return {
    consent: { accepted: true },
    id_document: {
      document_type: 'passport',
      images: [{ side: 'front', quality: { ok: true, issues: [] } }],
      details,
      mrz: {
        first_name: details.first_name.toUpperCase(),
        last_name: details.last_name.toUpperCase(),
        date_of_birth: mrzDate(details.date_of_birth),
        document_number: details.document_number,
        expiry_date: mrzDate(details.expiry_date),
        check_digits_valid: true,
      },
    },
    liveness: { accepted: true },
    duplicates: { document_number_used_by_other_reference: false, image_reused_in_other_session: false },
  };
}

/**
 * Evidence per session, handed to the review as the end-user would have submitted it. `calls` counts how
 * often the review read each session's evidence.
 */
export class EvidenceBook {
  readonly #bySession = new Map<string, ReviewEvidence>();
  readonly calls = new Map<string, number>();

  set(sessionId: string, evidence: ReviewEvidence): void {
    this.#bySession.set(sessionId, evidence);
  }

  readonly collector: EvidenceCollector = async (_sql, _deps, session) => {
    this.calls.set(session.id, (this.calls.get(session.id) ?? 0) + 1);
    return structuredClone(this.#bySession.get(session.id) ?? {});
  };
}

export type Body = Record<string, any>;

/** Creates a session and answers its body. */
export async function createSession(h: TestHarness, key: string, body: Body = {}): Promise<Body> {
  const response = await h.call('POST', '/v1/sessions', {
    key,
    body: { country: 'DEU', flow: 'user', tier: 'tier2', ...body },
  });
  assert.equal(response.status, 201, await response.clone().text());
  return json(response);
}

/** The sandbox simulation endpoint, asserting success. */
export async function simulate(
  h: TestHarness,
  key: string,
  id: string,
  action: string,
  extra: Body = {},
): Promise<Body> {
  const response = await h.call('POST', `/v1/sandbox/sessions/${id}/simulate`, {
    key,
    body: { action, ...extra },
  });
  assert.equal(response.status, 200, await response.clone().text());
  return json(response);
}

/**
 * Brings a session to `processing` as the end-user would: in the sandbox with the simulated steps, in
 * production by marking the steps done in storage (the hosted-page endpoints are another suite's
 * subject), then the tenant's real submit.
 */
export async function completeAndSubmit(h: TestHarness, key: string, id: string): Promise<Body> {
  if (key.startsWith('sk_sandbox_')) {
    await simulate(h, key, id, 'complete_steps');
  } else {
    await h.deps.db.query(
      `update sessions set status = 'collecting',
         steps = (select jsonb_agg(step || '{"status":"completed"}') from jsonb_array_elements(steps) step)
        where id = $1`,
      [id],
    );
  }
  const submitted = await h.call('POST', `/v1/sessions/${id}/submit`, { key });
  assert.equal(submitted.status, 200, await submitted.clone().text());
  return json(submitted);
}

/** A worker on the harness with short, deterministic settings. */
export function worker(h: TestHarness, options: ReviewWorkerOptions = {}) {
  return createReviewWorker(h.deps, { leaseMs: 30_000, batchSize: 20, ...options });
}

export async function result(h: TestHarness, key: string, id: string): Promise<Body> {
  const response = await h.call('GET', `/v1/sessions/${id}/result`, { key });
  assert.equal(response.status, 200);
  return json(response);
}

export async function eventTypes(h: TestHarness, sessionId: string): Promise<string[]> {
  return (await listEventsOfSession(h.deps.db, sessionId)).map((event) => event.type);
}

/** A console user of the given role in the harness's first tenant; answers its access token. */
export async function loginAs(h: TestHarness, role: Role): Promise<string> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@tenant.idv.test`;
  const password = 'correct horse battery staple';
  await insertUser(h.deps.db, {
    id: h.deps.ids('usr'),
    tenantId: h.tenant.tenantId,
    email,
    passwordHash: await h.deps.passwords.hash(password),
    role,
    now: h.clock.now(),
  });
  const response = await h.call('POST', '/v1/console/login', { body: { email, password } });
  assert.equal(response.status, 200);
  return ((await json(response)) as { access_token: string }).access_token;
}
