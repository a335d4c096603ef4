import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createIdVerifyClient,
  type IdVerifyClient,
  IdVerifyError,
} from '../../../server/client/src/index.ts';
import { inviteAndLogIn } from '../api/console-support.ts';
import { EvidenceBook, goodEvidence } from '../review-pipeline/pipeline-support.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { type Listening, listen } from './support/listen.ts';

describe('@id-verify/node client: the review queue, assignment and export', () => {
  let h: TestHarness;
  let server: Listening;
  let idv: IdVerifyClient;
  const book = new EvidenceBook();

  before(async () => {
    h = await createHarness('pglite', { collectReviewEvidence: book.collector });
    server = await listen((request) => h.app.fetch(request));
    idv = createIdVerifyClient({ apiKey: h.tenant.sandboxKey, baseUrl: server.url });
  });

  after(async () => {
    await server.close();
    await h.close();
  });

  it('lists the queue, reads the document data, assigns, reads and releases the claim, and exports CSV', async () => {
    const session = await idv.sessions.create({ country: 'DEU', flow: 'user', tier: 'tier2' });
    book.set(session.session_id, goodEvidence(h, { first_name: 'Lena', last_name: 'Kowalski' }));
    await idv.sandbox.simulate(session.session_id, { action: 'review' });

    const queued = await idv.reviewQueue.list({ q: 'kowalski' }).page();
    assert.deepEqual(
      queued.data.map((item) => item.session_id),
      [session.session_id],
    );
    assert.equal(queued.data[0]?.claim, null);

    const data = await idv.sessions.documentData(session.session_id);
    assert.deepEqual(
      data.sources.map((source) => source.source),
      ['typed', 'mrz'],
    );
    assert.equal(data.sources[0]?.values.last_name, 'Kowalski');

    const reviewer = await inviteAndLogIn(h, 'reviewer', await h.login());
    const assigned = await idv.sessions.assign(session.session_id, { user_id: reviewer.userId });
    assert.equal(assigned.reviewer_id, reviewer.userId);
    assert.equal((await idv.sessions.claim.get(session.session_id)).expires_at, null);
    const released = await idv.sessions.claim.release(session.session_id);
    assert.equal(released.released, true);
    await assert.rejects(idv.sessions.claim.get(session.session_id), (error: unknown) => {
      return error instanceof IdVerifyError && error.status === 404;
    });

    const csv = await idv.sessions.export({ status: ['review_required'] });
    const [header, row] = csv.split('\r\n');
    assert.match(header ?? '', /^session_id,status,/);
    assert.match(row ?? '', new RegExp(`^${session.session_id},review_required,sandbox,`));
  });
});
