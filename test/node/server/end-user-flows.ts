// End-user flows driven over HTTP against real server processes that may die at any moment, and the
// bookkeeping the crash and concurrency tests check afterwards: what the client was told (acknowledged
// creates and submits), what the database holds, what an independent receiver got.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DOCUMENT_FIXTURES_DIR } from '../../fixtures/vision/documents/manifest.ts';

export type SandboxOutcome = 'approved' | 'rejected' | 'review_required';
export const DECISION_EVENTS = ['session.approved', 'session.rejected', 'session.review_required'];

/** What the client was told, per session: only 2xx answers count as acknowledged. */
export interface FlowLedger {
  /** Sessions whose create answered 2xx. */
  created: Set<string>;
  /** Sessions whose submit answered 2xx. */
  submitted: Set<string>;
  /** Requests that died with the connection (or a 5xx / 503 while a server was down) and were retried. */
  retries: number;
  /** Flows that reached an answer they could not get past: a failure of the test. */
  failures: string[];
}

export function emptyLedger(): FlowLedger {
  return { created: new Set(), submitted: new Set(), retries: 0, failures: [] };
}

/** A request that cannot be retried into success: a 4xx the flow did not expect. */
class FlowError extends Error {}

const PASSPORT = readFileSync(join(DOCUMENT_FIXTURES_DIR, 'passport-astronaut.jpg'));

/**
 * The multipart body of the passport upload, serialised once: a retry with the same Idempotency-Key must
 * send the same bytes (a fresh FormData would pick a fresh boundary, a different request).
 */
async function passportUploadBody(): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const form = new FormData();
  form.set('step', 'id_document');
  form.set('document_type', 'passport');
  form.set('issuing_country', 'NLD');
  form.set('side', 'front');
  form.set('image', new File([PASSPORT], 'passport.jpg', { type: 'image/jpeg' }));
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') as string,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one request until it is answered with a 2xx, as a careful client does across a crash: the same
 * Idempotency-Key on every try, a pause after a refused connection, a 5xx (a server going down) or
 * `idempotency_request_in_progress` (the first try's owner died; its lease lapses), and the wait a 429
 * asks for (`retry-after`: the limits live in the database, so the retries of one session add up across
 * restarts, as a real client's would). Any other answer fails the flow. `baseUrl()` is read on every try: the server may have moved.
 */
async function untilAcknowledged(
  ledger: FlowLedger,
  baseUrl: () => string,
  path: string,
  init: { method: string; headers: Record<string, string>; body?: Uint8Array<ArrayBuffer> | string },
  deadline: number,
): Promise<Record<string, unknown>> {
  const key = randomUUID();
  let last = 'nothing';
  for (;;) {
    if (Date.now() > deadline) {
      throw new FlowError(`${init.method} ${path}: no 2xx before the deadline; last: ${last}`);
    }
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await fetch(`${baseUrl()}${path}`, {
        method: init.method,
        headers: { ...init.headers, 'idempotency-key': key },
        ...(init.body === undefined ? {} : { body: init.body }),
        signal: AbortSignal.timeout(15_000),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      last = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      ledger.retries += 1;
      await sleep(150);
      continue;
    }
    if (status >= 200 && status < 300) return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (status === 429) {
      last = `${status} ${text.slice(0, 200)}`;
      ledger.retries += 1;
      const seconds = Number(retryAfter);
      await sleep(Number.isFinite(seconds) ? Math.min(10_000, Math.max(250, seconds * 1000)) : 1000);
      continue;
    }
    if (status >= 500 || (status === 409 && text.includes('idempotency_request_in_progress'))) {
      last = `${status} ${text.slice(0, 200)}`;
      ledger.retries += 1;
      await sleep(250);
      continue;
    }
    throw new FlowError(`${init.method} ${path} answered ${status}: ${text.slice(0, 300)}`);
  }
}

/**
 * One end-user flow on a sandbox tier1 session: the tenant creates it (forced `outcome`), the end-user
 * opens it, consents, uploads the passport photo and types its details, the tenant submits it. Records
 * the acknowledged create and submit in `ledger`. `baseUrl()` picks the instance for each request.
 */
export async function runFlow(
  ledger: FlowLedger,
  options: { baseUrl: () => string; apiKey: string; outcome: SandboxOutcome; deadline: number },
): Promise<void> {
  const { baseUrl, apiKey, deadline } = options;
  const tenant = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  try {
    const created = await untilAcknowledged(
      ledger,
      baseUrl,
      '/v1/sessions',
      {
        method: 'POST',
        headers: tenant,
        body: JSON.stringify({
          country: 'NLD',
          flow: 'user',
          tier: 'tier1',
          external_user_reference: `crash-${randomUUID().slice(0, 8)}`,
          sandbox: { outcome: options.outcome },
        }),
      },
      deadline,
    );
    const sessionId = String(created['session_id']);
    ledger.created.add(sessionId);
    const token = decodeURIComponent(String(created['verify_url']).split('/verify/')[1] ?? '');
    const user = { 'x-verify-token': token };
    await untilAcknowledged(
      ledger,
      baseUrl,
      '/v1/verify/session',
      { method: 'GET', headers: user },
      deadline,
    );
    await untilAcknowledged(
      ledger,
      baseUrl,
      '/v1/verify/consent',
      {
        method: 'POST',
        headers: { ...user, 'content-type': 'application/json' },
        body: JSON.stringify({ accepted: true, consent_version: 'v1', locale: 'en' }),
      },
      deadline,
    );
    const upload = await passportUploadBody();
    const uploaded = await untilAcknowledged(
      ledger,
      baseUrl,
      '/v1/verify/documents',
      { method: 'POST', headers: { ...user, 'content-type': upload.contentType }, body: upload.body },
      deadline,
    );
    const reading = uploaded['reading'] as { details_required?: boolean } | undefined;
    if (reading?.details_required !== false) {
      // Without the document reader (IDV_VISION=off) the end-user types what the passport states.
      await untilAcknowledged(
        ledger,
        baseUrl,
        '/v1/verify/details',
        {
          method: 'PUT',
          headers: { ...user, 'content-type': 'application/json' },
          body: JSON.stringify({
            step: 'id_document',
            first_name: 'MARIA ELENA',
            last_name: 'VAN DIJK',
            date_of_birth: '1978-03-14',
            nationality: 'NLD',
            document_number: 'NXR8K4P27',
            expiry_date: '2034-06-01',
          }),
        },
        deadline,
      );
    }
    await untilAcknowledged(
      ledger,
      baseUrl,
      `/v1/sessions/${encodeURIComponent(sessionId)}/submit`,
      { method: 'POST', headers: tenant, body: '{}' },
      deadline,
    );
    ledger.submitted.add(sessionId);
  } catch (error) {
    if (!(error instanceof FlowError)) throw error;
    ledger.failures.push(error.message);
  }
}

const OUTCOMES: SandboxOutcome[] = ['approved', 'rejected', 'review_required'];

/**
 * Runs flows on `lanes` concurrent lanes until `keepGoing()` turns false; each lane starts its next flow
 * when the last one is acknowledged. Returns the number of flows run.
 */
export async function runFlowLanes(
  ledger: FlowLedger,
  options: {
    lanes: number;
    keepGoing: () => boolean;
    baseUrl: (flow: number) => string;
    apiKey: string;
    flowTimeoutMs: number;
  },
): Promise<number> {
  let flows = 0;
  await Promise.all(
    Array.from({ length: options.lanes }, async () => {
      while (options.keepGoing()) {
        const flow = flows++;
        await runFlow(ledger, {
          baseUrl: () => options.baseUrl(flow),
          apiKey: options.apiKey,
          outcome: OUTCOMES[flow % OUTCOMES.length] as SandboxOutcome,
          deadline: Date.now() + options.flowTimeoutMs,
        });
      }
    }),
  );
  return flows;
}

/** The keys of a file blob store's blobs (`<root>/<key>`), and the temporary files a cut write left. */
export function fileBlobKeys(root: string): { keys: string[]; temporary: string[] } {
  const keys: string[] = [];
  const temporary: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.tmp')) temporary.push(relative(root, path).split(sep).join('/'));
      else keys.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return { keys, temporary };
}

/** One query at a time against the database under test (PGlite or PostgreSQL). */
export type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface DatabaseFindings {
  missingCreates: string[];
  /** Submitted sessions and how many decision rows / decision events each has, where not exactly one. */
  notDecidedOnce: { sessionId: string; decisions: number; decisionEvents: number }[];
  /** `session.*` event ids of the ledger's sessions, with their type and session. */
  events: { id: string; type: string; session_id: string }[];
  uploadBlobKeys: string[];
}

/** What the database says about the ledger's sessions. */
export async function inspectDatabase(query: Query, ledger: FlowLedger): Promise<DatabaseFindings> {
  const created = [...ledger.created];
  const present = new Set(
    (await query<{ id: string }>('select id from sessions where id = any($1::text[])', [created])).map(
      (row) => row.id,
    ),
  );
  const decisions = new Map<string, number>();
  for (const row of await query<{ session_id: string; count: number }>(
    'select session_id, count(*)::int as count from session_decisions where session_id = any($1::text[]) group by session_id',
    [created],
  )) {
    decisions.set(row.session_id, row.count);
  }
  const events = await query<{ id: string; type: string; session_id: string }>(
    `select id, type, session_id from events where session_id = any($1::text[]) and type like 'session.%'`,
    [created],
  );
  const decisionEvents = new Map<string, number>();
  for (const event of events) {
    if (DECISION_EVENTS.includes(event.type)) {
      decisionEvents.set(event.session_id, (decisionEvents.get(event.session_id) ?? 0) + 1);
    }
  }
  const notDecidedOnce = [...ledger.submitted]
    .map((sessionId) => ({
      sessionId,
      decisions: decisions.get(sessionId) ?? 0,
      decisionEvents: decisionEvents.get(sessionId) ?? 0,
    }))
    .filter((entry) => entry.decisions !== 1 || entry.decisionEvents !== 1);
  const uploadBlobKeys = (await query<{ blob_key: string }>('select blob_key from verify_uploads')).map(
    (row) => row.blob_key,
  );
  return {
    missingCreates: created.filter((id) => !present.has(id)),
    notDecidedOnce,
    events,
    uploadBlobKeys,
  };
}

/** Deliveries per event id (the `webhook-id` header), from the receiver's log. */
export function deliveriesPerEvent(webhookIds: (string | null)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of webhookIds) {
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
