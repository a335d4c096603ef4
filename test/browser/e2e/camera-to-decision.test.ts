import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import {
  acceptPreview,
  answerLivenessByCamera,
  chooseDocumentType,
  completion,
  confirmDetails,
  giveConsent,
  mountWidget,
  onScreen,
  submitOnReview,
  where,
} from './support/drive-widget.ts';
import { createSession, readEvidence, readResult, readSession } from './support/tenant-server.ts';

describe('end to end: fake camera → decision against the real server', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  it('takes a tier2 sandbox session from consent to an automated decision with camera captures', async function () {
    this.timeout(60_000);
    const session = await createSession({
      country: 'FRA',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: 'e2e-camera-user',
    });
    expect(session.required_steps).to.deep.equal(['consent', 'id_document', 'liveness']);
    expect(session.verify_url).to.match(/^http:\/\/localhost:\d+\/verify\/[^/]+$/);

    const widget = mountWidget(session.verify_url);
    el = widget;
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));
    const completed = completion(widget, 50_000);

    await giveConsent(widget);
    await chooseDocumentType(widget, 'id_card');

    // Front and back: the rear fake camera streams the synthetic card; nobody presses the shutter, the
    // on-device quality check fires it after about a second of good frames.
    await onScreen(widget, 'document_front');
    await acceptPreview(widget);
    await onScreen(widget, 'document_back', 10_000);
    await acceptPreview(widget);

    await confirmDetails(widget, {
      first_name: 'Camille',
      last_name: 'Martin',
      date_of_birth: '1990-04-12',
      document_number: 'E2ECAM001',
      expiry_date: '2034-01-31',
    });

    const actions = await answerLivenessByCamera(widget);
    expect(actions.length).to.be.greaterThan(0);

    await submitOnReview(widget);
    const done = await completed;
    expect(errors, 'no idv-error on the way').to.deep.equal([]);
    expect(done.session_id).to.equal(session.session_id);
    // Every check the server can run passes; in the sandbox the checks that await a model
    // (inconclusive) do not hold the decision back (server/domain/review/severity.ts).
    expect(done.status).to.equal('approved');

    // The tenant's side reads the same decision, made by the automated review.
    const result = await readResult(session.session_id);
    expect(result.status).to.equal(200);
    expect(result.body.status).to.equal(done.status);
    expect(result.body.decision).to.equal(done.status);
    expect(result.body.decided_by).to.equal('automated');
    const check = (type: string) => result.body.checks.find((c: { type: string }) => c.type === type);
    expect(check('consent').status).to.equal('passed');
    expect(check('document_quality').status, JSON.stringify(check('document_quality'))).to.equal('passed');
    // The frames answered the challenge; judging a live face needs a model the server does not claim.
    expect(check('liveness')).to.deep.include({ status: 'inconclusive' });
    expect(check('liveness').details).to.deep.include({ frames_accepted: true });
    expect(check('document_expiry').status).to.equal('passed');
    expect(check('age').status).to.equal('passed');

    // What was stored are real JPEGs captured from the stream, at the encoder's size and budget.
    const uploads = await readEvidence(session.session_id);
    const documents = uploads.filter((u) => u.kind === 'document');
    expect(documents.map((u) => u.side).sort()).to.deep.equal(['back', 'front']);
    for (const upload of documents) {
      expect(upload.content_type).to.equal('image/jpeg');
      expect(upload.stored.format).to.equal('jpeg');
      expect([upload.stored.width, upload.stored.height]).to.deep.equal([1280, 720]);
      expect(upload.stored.bytes).to.be.within(40_000, 600_000);
      expect(upload.quality.ok, JSON.stringify(upload.quality)).to.equal(true);
    }
    const frames = uploads.filter((u) => u.kind === 'liveness_frame');
    expect(frames).to.have.length(actions.length);
    for (const frame of frames) expect(frame.stored.format).to.equal('jpeg');

    const final = await readSession(session.session_id);
    expect(final.body.status).to.equal(done.status);
    expect(final.body.steps.every((s: { status: string }) => s.status === 'completed')).to.equal(true);
    expect(where(widget)).to.equal(`result_${done.status}`);
  });
});
