import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { backfillNameIndex } from '../../../server/features/review-queue/backfill-name-index.ts';
import { csvCell } from '../../../server/features/review-queue/csv.ts';
import { nameWords } from '../../../server/features/review-queue/name-tokens.ts';
import { createSession, EvidenceBook, goodEvidence, simulate } from '../review-pipeline/pipeline-support.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import {
  ANNA,
  createConsentedSession,
  documentForm,
  makeImages,
  verifyCall,
} from '../verify/verify-support.ts';
import { testEngines } from '../support/test-database.ts';
import { type Body, type ConsoleUser, expectOk, expectProblem, inviteAndLogIn } from './console-support.ts';

const SANDBOX = { 'x-environment': 'sandbox' };
const MINUTE_MS = 60_000;

describe('review queue helpers (unit)', () => {
  it('defuses spreadsheet formulas and quotes what RFC 4180 needs', () => {
    assert.equal(csvCell('=SUM(A1:A2)'), "'=SUM(A1:A2)");
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-2'), "'-2");
    assert.equal(csvCell('@cmd'), "'@cmd");
    assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(null), '');
  });

  it('compares names without case, accents or punctuation', () => {
    assert.deepEqual(nameWords(' Anna-María  ERIKSSON '), ['anna', 'maria', 'eriksson']);
    assert.deepEqual(nameWords('Ødegård'), ['ødegard']);
  });
});

/** Parses the export (no cell of these tests holds a comma, quote or line break). */
function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.split('\r\n').filter((line) => line !== '');
  const columns = (header as string).split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])));
}

for (const engine of testEngines()) {
  describe(`team review workflow (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    let alice: ConsoleUser;
    let bob: ConsoleUser;
    let viewer: ConsoleUser;
    const book = new EvidenceBook();
    /** Sessions in review: [0] Anna Eriksson (face_match_uncertain), [1] Jane Doe (document_expired). */
    const inReview: string[] = [];
    let approvedId: string;

    const as = (user: ConsoleUser | string, body?: unknown) => ({
      token: typeof user === 'string' ? user : user.token,
      headers: SANDBOX,
      ...(body === undefined ? {} : { body }),
    });
    const queue = async (query = '', user: ConsoleUser | string = alice): Promise<Body> =>
      expectOk(await h.call('GET', `/v1/review-queue${query}`, as(user)));
    const auditOf = async (sessionId: string, action: string): Promise<Body[]> =>
      (
        await expectOk(
          await h.call('GET', `/v1/audit-events?session_id=${sessionId}&action=${action}`, { token: admin }),
        )
      )['data'];

    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
      admin = await h.login();
      alice = await inviteAndLogIn(h, 'reviewer', admin);
      bob = await inviteAndLogIn(h, 'reviewer', admin);
      viewer = await inviteAndLogIn(h, 'viewer', admin);
      const key = h.tenant.sandboxKey;
      const people: [string, string, string, Body][] = [
        ['Anna María', 'Eriksson', 'face_match_uncertain', { external_user_reference: 'crm-anna-1' }],
        ['Jane', 'Doe', 'document_expired', { external_user_reference: '=cmd|calc' }],
      ];
      for (const [first, last, reason, body] of people) {
        const session = await createSession(h, key, body);
        book.set(session['session_id'], goodEvidence(h, { first_name: first, last_name: last }));
        await simulate(h, key, session['session_id'], 'review', { reason_codes: [reason] });
        inReview.push(session['session_id']);
        h.clock.advance(MINUTE_MS);
      }
      const approved = await createSession(h, key, { external_user_reference: 'crm-approved' });
      approvedId = approved['session_id'];
      book.set(approvedId, goodEvidence(h, { first_name: 'Paul', last_name: 'Approved' }));
      await simulate(h, key, approvedId, 'approve');
    });

    after(() => h.close());

    // The tests move the clock by hours in all; console tokens last less, so each test logs in afresh.
    beforeEach(async () => {
      admin = await h.login();
      for (const user of [alice, bob, viewer]) {
        user.token = await h.login({ ...h.tenant, email: user.email, password: user.password });
      }
    });

    it('lists the queue oldest first with its reasons, waiting time and the tenant target', async () => {
      const page = await queue();
      assert.deepEqual(
        page['data'].map((item: Body) => item['session_id']),
        inReview,
      );
      const [anna] = page['data'];
      assert.equal(anna['object'], 'review_queue_item');
      // A sandbox session forced into review says so beside the reason it was given.
      assert.deepEqual(anna['reason_codes'], ['sandbox_forced', 'face_match_uncertain']);
      assert.equal(anna['external_user_reference'], 'crm-anna-1');
      assert.equal(anna['target_minutes'], 240);
      assert.equal(page['target_minutes'], 240);
      assert.equal(anna['claim'], null);
      const waited = anna['waiting_minutes'];
      assert.equal(anna['over_target'], waited > 240);

      // The target is the tenant's setting; waiting past it marks the item.
      const tenant = await expectOk(
        await h.call('PATCH', '/v1/tenant', { token: admin, body: { review_target_minutes: 30 } }),
      );
      assert.equal(tenant['review_target_minutes'], 30);
      await expectProblem(
        await h.call('PATCH', '/v1/tenant', { token: admin, body: { review_target_minutes: 1 } }),
        400,
        'invalid_parameter',
      );
      h.clock.advance(31 * MINUTE_MS);
      const later = (await queue())['data'][0];
      assert.equal(later['target_minutes'], 30);
      assert.equal(later['waiting_minutes'], waited + 31);
      assert.equal(later['over_target'], true);
    });

    it('searches by session id, external reference and name (blind index), and filters by reason', async () => {
      const [anna, jane] = inReview as [string, string];
      const ids = async (query: string) =>
        (await queue(query))['data'].map((item: Body) => item['session_id']);
      assert.deepEqual(await ids(`?q=${jane}`), [jane]);
      assert.deepEqual(await ids('?q=crm-anna-1'), [anna]);
      assert.deepEqual(await ids(`?q=${encodeURIComponent('maria eriksson')}`), [anna]);
      assert.deepEqual(await ids(`?q=${encodeURIComponent('ERIKSSON')}`), [anna]);
      assert.deepEqual(await ids('?q=doe'), [jane]);
      assert.deepEqual(await ids(`?q=${encodeURIComponent('anna doe')}`), []);
      assert.deepEqual(await ids('?q=crm-anna'), [], 'a reference matches exactly, never by prefix');
      assert.deepEqual(await ids('?reason_code=document_expired'), [jane]);
      assert.deepEqual(await ids('?reason_code=document_expired&reason_code=face_match_uncertain'), [
        anna,
        jane,
      ]);

      // The sessions list has the same search and filter, over every status.
      const list = async (query: string) =>
        (await expectOk(await h.call('GET', `/v1/sessions${query}`, as(admin))))['data'].map(
          (session: Body) => session['session_id'],
        );
      assert.deepEqual(await list('?q=approved'), [approvedId]);
      assert.deepEqual(await list('?q=eriksson'), [anna]);
      assert.deepEqual(await list('?reason_code=face_match_uncertain'), [anna]);

      // The names are stored as keyed digests only.
      const stored = await h.deps.db.query<{ token_index: string }>(
        'select token_index from session_name_tokens where session_id = $1',
        [anna],
      );
      assert.equal(stored.length, 3);
      for (const row of stored) assert.doesNotMatch(row.token_index, /anna|maria|eriksson/i);

      // Sessions reviewed before the index existed: the backfill reads their evidence and indexes them.
      await h.deps.db.query('delete from session_name_tokens where session_id = any($1::text[])', [
        [anna, approvedId],
      ]);
      assert.deepEqual(await list('?q=eriksson'), []);
      const backfilled = await backfillNameIndex(h.deps);
      assert.deepEqual(backfilled, { examined: 2, indexed: 2 });
      assert.deepEqual(await list('?q=eriksson'), [anna]);
      assert.deepEqual(await list('?q=approved'), [approvedId]);
      assert.deepEqual(await backfillNameIndex(h.deps), { examined: 0, indexed: 0 });
    });

    it('finds a session by the name its end-user typed, before any review', async () => {
      const session = await createConsentedSession(h);
      const typed = await verifyCall(h, 'PUT', '/v1/verify/details', {
        token: session.token,
        body: { ...ANNA, first_name: 'Greta', last_name: 'Lindqvist' },
      });
      assert.equal(typed.status, 200);
      const found = await expectOk(await h.call('GET', '/v1/sessions?q=lindqvist', as(admin)));
      assert.deepEqual(
        found['data'].map((item: Body) => item['session_id']),
        [session.sessionId],
      );
    });

    it('a claim shows in the queue; another reviewer’s decision is 409 review_claimed until taken over (audited)', async () => {
      const [anna] = inReview as [string];
      const claim = await expectOk(await h.call('POST', `/v1/sessions/${anna}/claim`, as(alice)));
      assert.equal(claim['object'], 'review_claim');
      assert.equal(claim['reviewer_id'], alice.userId);
      assert.equal(claim['assigned_by'], null);
      assert.equal(Date.parse(claim['expires_at']) - h.clock.now().getTime(), 30 * MINUTE_MS);
      assert.deepEqual(await expectOk(await h.call('GET', `/v1/sessions/${anna}/claim`, as(bob))), claim);
      const item = (await queue('', bob))['data'].find((entry: Body) => entry['session_id'] === anna);
      assert.deepEqual(item['claim'], claim);
      assert.deepEqual(
        (await queue('?claim=mine', alice))['data'].map((entry: Body) => entry['session_id']),
        [anna],
      );
      assert.equal((await queue('?claim=unclaimed', alice))['data'].length, 1);

      const refused = await expectProblem(
        await h.call('POST', `/v1/sessions/${anna}/review`, as(bob, { decision: 'approve' })),
        409,
        'review_claimed',
      );
      assert.equal(refused['claimed_by'], alice.userId);
      assert.equal(refused['claimed_until'], claim['expires_at']);
      await expectProblem(await h.call('POST', `/v1/sessions/${anna}/claim`, as(bob)), 409, 'review_claimed');
      await expectProblem(
        await h.call('DELETE', `/v1/sessions/${anna}/claim`, as(bob)),
        409,
        'review_claimed',
      );

      // Renewing keeps the claim going; an API key cannot hold one.
      h.clock.advance(10 * MINUTE_MS);
      const renewed = await expectOk(await h.call('POST', `/v1/sessions/${anna}/claim`, as(alice)));
      assert.equal(renewed['claimed_at'], claim['claimed_at']);
      assert.equal(Date.parse(renewed['expires_at']) - h.clock.now().getTime(), 30 * MINUTE_MS);
      await expectProblem(
        await h.call('POST', `/v1/sessions/${anna}/claim`, { key: h.tenant.sandboxKey }),
        403,
        'insufficient_capability',
      );

      // Another tenant can neither see, claim, take over, release nor assign it.
      const stranger = await h.login(h.other);
      assert.deepEqual((await queue('', stranger))['data'], []);
      for (const [method, path, body] of [
        ['GET', 'claim', undefined],
        ['POST', 'claim', undefined],
        ['POST', 'claim/take-over', undefined],
        ['DELETE', 'claim', undefined],
        ['PUT', 'assignment', { user_id: alice.userId }],
      ] as const) {
        // Assigning too: the session is looked up before the assignee is judged, so nothing is told.
        await expectProblem(
          await h.call(method, `/v1/sessions/${anna}/${path}`, as(stranger, body)),
          404,
          'resource_missing',
        );
      }

      const taken = await expectOk(await h.call('POST', `/v1/sessions/${anna}/claim/take-over`, as(bob)));
      assert.equal(taken['reviewer_id'], bob.userId);
      const [event] = await auditOf(anna, 'session.claim_taken_over');
      assert.equal(event?.['actor']['id'], bob.userId);
      assert.deepEqual(event?.['details'], { previous_reviewer_id: alice.userId });
      await expectProblem(
        await h.call('POST', `/v1/sessions/${anna}/review`, as(alice, { decision: 'approve' })),
        409,
        'review_claimed',
      );
      const decided = await expectOk(
        await h.call('POST', `/v1/sessions/${anna}/review`, as(bob, { decision: 'approve' })),
      );
      assert.equal(decided['status'], 'approved');
      await expectProblem(
        await h.call('GET', `/v1/sessions/${anna}/claim`, as(bob)),
        404,
        'resource_missing',
      );
      await expectProblem(
        await h.call('POST', `/v1/sessions/${anna}/claim`, as(alice)),
        409,
        'invalid_state_transition',
      );
    });

    it('an expired claim no longer blocks; release ends one', async () => {
      const [, jane] = inReview as [string, string];
      await expectOk(await h.call('POST', `/v1/sessions/${jane}/claim`, as(alice)));
      h.clock.advance(31 * MINUTE_MS);
      assert.equal((await queue())['data'][0]['claim'], null);
      await expectOk(await h.call('POST', `/v1/sessions/${jane}/claim`, as(bob)));
      const released = await expectOk(await h.call('DELETE', `/v1/sessions/${jane}/claim`, as(bob)));
      assert.deepEqual(released, {
        object: 'review_claim_release',
        session_id: jane,
        released: true,
        previous_reviewer_id: bob.userId,
      });
      assert.equal(
        (await expectOk(await h.call('DELETE', `/v1/sessions/${jane}/claim`, as(bob))))['released'],
        false,
      );
    });

    it('an admin assigns a session (audited); the assignment holds until taken over', async () => {
      const [, jane] = inReview as [string, string];
      await expectProblem(
        await h.call('PUT', `/v1/sessions/${jane}/assignment`, as(alice, { user_id: bob.userId })),
        403,
        'insufficient_capability',
      );
      await expectProblem(
        await h.call('PUT', `/v1/sessions/${jane}/assignment`, as(admin, { user_id: viewer.userId })),
        400,
        'invalid_parameter',
      );
      const assigned = await expectOk(
        await h.call('PUT', `/v1/sessions/${jane}/assignment`, as(admin, { user_id: alice.userId })),
      );
      assert.equal(assigned['reviewer_id'], alice.userId);
      assert.equal(assigned['expires_at'], null);
      assert.ok(assigned['assigned_by']);
      const [event] = await auditOf(jane, 'session.assigned');
      assert.deepEqual(event?.['details'], { reviewer_id: alice.userId, previous_reviewer_id: null });
      // Past any claim's 30 minutes: an assignment has no end.
      h.clock.advance(40 * MINUTE_MS);
      const item = (await queue('', bob))['data'][0];
      assert.equal(item['claim']['reviewer_id'], alice.userId);
      assert.equal(item['over_target'], true);
      await expectProblem(
        await h.call('POST', `/v1/sessions/${jane}/review`, as(bob, { decision: 'reject' })),
        409,
        'review_claimed',
      );
      // The assignee's own claim keeps it an assignment.
      const own = await expectOk(await h.call('POST', `/v1/sessions/${jane}/claim`, as(alice)));
      assert.equal(own['expires_at'], null);
    });

    it('exports the list’s sessions as CSV, personal columns only with identities:read_pii (audited)', async () => {
      const query = 'status=approved&status=review_required&order=asc';
      const listed = (await expectOk(await h.call('GET', `/v1/sessions?${query}&limit=100`, as(admin))))[
        'data'
      ] as Body[];
      const response = await h.call('GET', `/v1/exports/sessions?${query}`, as(admin));
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(
        response.headers.get('content-disposition') ?? '',
        /attachment; filename="sessions-sandbox-/,
      );
      const text = await response.text();
      const rows = parseCsv(text);
      assert.deepEqual(
        rows.map((row) => [row['session_id'], row['status']]),
        listed.map((session) => [session['session_id'], session['status']]),
      );
      const byId = new Map(rows.map((row) => [row['session_id'], row]));
      const [anna, jane] = inReview as [string, string];
      assert.equal(byId.get(anna)?.['decided_by'], 'reviewer');
      assert.equal(byId.get(anna)?.['reviewer_id'], bob.userId);
      assert.equal(byId.get(jane)?.['reason_codes'], 'sandbox_forced;document_expired');
      assert.equal(byId.get(anna)?.['external_user_reference'], 'crm-anna-1');
      assert.equal(byId.get(jane)?.['external_user_reference'], "'=cmd|calc", 'a formula is defused');

      const filtered = parseCsv(
        await (await h.call('GET', '/v1/exports/sessions?q=eriksson', as(admin))).text(),
      );
      assert.deepEqual(
        filtered.map((row) => row['session_id']),
        [anna],
      );

      const forViewer = await h.call('GET', `/v1/exports/sessions?${query}`, as(viewer));
      const viewerText = await forViewer.text();
      assert.equal(forViewer.status, 200);
      assert.doesNotMatch(
        viewerText.split('\r\n')[0] as string,
        /external_user_reference|first_name|last_name/,
      );
      assert.doesNotMatch(viewerText, /crm-anna-1|calc/);
      assert.equal(parseCsv(viewerText).length, listed.length);

      const exported = (
        await expectOk(await h.call('GET', '/v1/audit-events?action=session.exported', { token: admin }))
      )['data'] as Body[];
      assert.equal(exported.length, 3);
      const viewerEvent = exported.find((event) => event['actor']['id'] === viewer.userId);
      assert.deepEqual(viewerEvent?.['details'], {
        rows: listed.length,
        personal_fields: false,
        filters: ['order', 'status'],
      });
      assert.doesNotMatch(JSON.stringify(exported), /eriksson/i, 'filter values are never audited');
    });

    it('shows the document details by source with their disagreements, and audits the read', async () => {
      const [anna, jane] = inReview as [string, string];
      const data = await expectOk(await h.call('GET', `/v1/sessions/${anna}/document-data`, as(alice)));
      assert.equal(data['object'], 'document_data');
      assert.equal(data['document_type'], 'passport');
      assert.deepEqual(
        data['sources'].map((source: Body) => [source['source'], source['verified']]),
        [
          ['typed', true],
          ['mrz', true],
        ],
      );
      assert.equal(data['sources'][0]['values']['first_name'], 'Anna María');
      assert.equal(data['sources'][1]['values']['last_name'], 'ERIKSSON');
      assert.equal(data['sources'][1]['values']['nationality'], null);
      assert.deepEqual(data['disagreements'], []);

      // The MRZ says another surname: the same comparison as the data_consistency check marks it.
      const evidence = goodEvidence(h, { first_name: 'Jane', last_name: 'Doe' });
      const mrz = evidence.id_document?.mrz;
      assert.ok(mrz);
      mrz.last_name = 'SMITH';
      book.set(jane, evidence);
      const differing = await expectOk(await h.call('GET', `/v1/sessions/${jane}/document-data`, as(alice)));
      assert.deepEqual(differing['disagreements'], ['last_name']);

      await expectProblem(
        await h.call('GET', `/v1/sessions/${anna}/document-data`, as(viewer)),
        403,
        'insufficient_capability',
      );
      const events = await auditOf(anna, 'session.personal_data_viewed');
      assert.equal(events.length, 1);
      assert.equal(events[0]?.['actor']['id'], alice.userId);
      assert.deepEqual(events[0]?.['details'], { sources: ['typed', 'mrz'] });
      assert.doesNotMatch(JSON.stringify(events), /eriksson|anna/i, 'the event holds no personal value');
    });

    it('a session without an identity document answers an empty comparison, unaudited; an unknown one 404', async () => {
      const bare = await createSession(h, h.tenant.sandboxKey, { external_user_reference: 'crm-bare' });
      const id = bare['session_id'];
      await simulate(h, h.tenant.sandboxKey, id, 'review', { reason_codes: ['face_match_uncertain'] });
      const data = await expectOk(await h.call('GET', `/v1/sessions/${id}/document-data`, as(alice)));
      assert.deepEqual(data, {
        object: 'document_data',
        session_id: id,
        document_type: null,
        issuing_country: null,
        fields: ['first_name', 'last_name', 'date_of_birth', 'document_number', 'expiry_date', 'nationality'],
        sources: [],
        disagreements: [],
      });
      assert.deepEqual(await auditOf(id, 'session.personal_data_viewed'), [], 'nothing personal was shown');
      await expectProblem(
        await h.call('GET', '/v1/sessions/sess_doesnotexist000000000/document-data', as(alice)),
        404,
        'resource_missing',
      );
      await expectProblem(
        await h.call('GET', `/v1/sessions/${id}/document-data`, as(viewer)),
        403,
        'insufficient_capability',
      );
    });

    it('opening evidence writes an access event with who, which session and what', async () => {
      const [anna] = inReview as [string];
      await expectOk(await h.call('GET', `/v1/sessions/${anna}/evidence`, as(alice)));
      const listed = await auditOf(anna, 'session.evidence_listed');
      assert.equal(listed.length, 1);
      assert.equal(listed[0]?.['actor']['id'], alice.userId);
      assert.deepEqual(listed[0]?.['target'], { type: 'session', id: anna });
      assert.deepEqual(listed[0]?.['details'], { uploads: 0 });
      // A missing upload is no access and leaves no event.
      await expectProblem(
        await h.call('GET', `/v1/sessions/${anna}/evidence/upl_missing`, as(alice)),
        404,
        'resource_missing',
      );
      assert.deepEqual(await auditOf(anna, 'session.evidence_viewed'), []);

      // A real upload, downloaded: the event names the upload, never its content.
      const open = await createConsentedSession(h);
      const { front } = await makeImages();
      const uploaded = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token: open.token,
        form: documentForm(front),
      });
      assert.equal(uploaded.status, 201, await uploaded.clone().text());
      const uploads = (
        await expectOk(await h.call('GET', `/v1/sessions/${open.sessionId}/evidence`, as(bob)))
      )['data'];
      const uploadId = uploads[0]['upload_id'];
      h.clock.advance(1000); // the audit log is newest first: one time per event
      const image = await h.call('GET', `/v1/sessions/${open.sessionId}/evidence/${uploadId}`, as(bob));
      assert.equal(image.status, 200);
      const [viewed] = await auditOf(open.sessionId, 'session.evidence_viewed');
      assert.equal(viewed?.['actor']['id'], bob.userId);
      assert.deepEqual(viewed?.['target'], { type: 'session', id: open.sessionId });
      assert.deepEqual(viewed?.['details'], {
        upload_id: uploadId,
        kind: 'document',
        step: uploads[0]['step'],
      });
      // The audit log's filter: by session, and a session id with another target type is refused.
      const all = (
        await expectOk(await h.call('GET', `/v1/audit-events?session_id=${open.sessionId}`, { token: admin }))
      )['data'].map((event: Body) => event['action']);
      assert.deepEqual(all, ['session.evidence_viewed', 'session.evidence_listed']);
      await expectProblem(
        await h.call('GET', `/v1/audit-events?session_id=${open.sessionId}&target_type=user`, {
          token: admin,
        }),
        400,
        'invalid_parameter',
      );
    });
  });
}
