import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { PEOPLE } from '../../../scripts/fixtures/documents/identities.ts';
import { deep, until } from '../support/dom.ts';
import { chromiumOnly } from '../support/engine.ts';
import {
  acceptPreview,
  chooseDocumentType,
  clickButton,
  giveConsent,
  mountWidget,
  onScreen,
} from './support/drive-widget.ts';
import { createSession, readEvidence, readSession } from './support/tenant-server.ts';

/** The passport in front of the camera (scripts/fixtures/camera/passport-on-desk.ts renders it). */
const PASSPORT = PEOPLE.camera.passport.mrz;

/** Every answer of `POST /v1/verify/documents` in this page, as the widget received it. */
function recordUploadAnswers(): { answers: Record<string, unknown>[]; stop: () => void } {
  const answers: Record<string, unknown>[] = [];
  const original = window.fetch;
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    const url = typeof args[0] === 'string' ? args[0] : args[0] instanceof URL ? args[0].href : args[0].url;
    if (url.includes('/v1/verify/documents')) {
      answers.push(
        await response
          .clone()
          .json()
          .catch(() => ({ status: response.status })),
      );
    }
    return response;
  };
  return { answers, stop: () => (window.fetch = original) };
}

/**
 * Issue #22's acceptance: Chromium's fake camera shows a specimen passport lying on a desk at an ordinary
 * distance (1280×720, the page about 60 % of the frame's width, turned 4°), nobody presses the shutter,
 * and the real server reads the machine-readable zone off the camera frame: the widget then confirms what
 * it read instead of asking the person to type it, and the document step completes by camera alone.
 */
describe('end to end: a passport on a desk, by camera → MRZ read, details confirmed', () => {
  let el: IdVerifyElement | null = null;
  let recording: ReturnType<typeof recordUploadAnswers> | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
    recording?.stop();
    recording = null;
  });

  it('auto-captures the passport, reads its MRZ on the server and shows the details to confirm', async function () {
    chromiumOnly(this, "the passport is in front of Chromium's file-fed camera only");
    // The first e2e command starts the server; the upload is read by the vision engine.
    this.timeout(240_000);
    const session = await createSession({
      country: 'FRA',
      flow: 'user',
      tier: 'tier1',
      external_user_reference: 'e2e-passport-camera',
    });
    recording = recordUploadAnswers();
    const widget = mountWidget(session.verify_url);
    el = widget;
    await giveConsent(widget);
    await chooseDocumentType(widget, 'passport');
    await onScreen(widget, 'document_front');
    // No shutter press: the on-device judgement fires it after about a second of good frames.
    await acceptPreview(widget, 30_000);
    const answers = recording.answers;
    await until(() => answers.length > 0, 120_000, 'the upload answer');
    const said = JSON.stringify(answers);
    const upload = answers[0] as { quality?: { ok: boolean }; reading?: Record<string, boolean> };
    expect(upload.quality?.ok, `the server kept the camera frame: ${said}`).to.equal(true);
    expect(upload.reading, `the server read the MRZ off the camera frame: ${said}`).to.deep.equal({
      mrz_read: true,
      barcode_read: false,
      details_required: false,
    });

    // The widget confirms what was read: the summary, not the form to type into.
    await onScreen(widget, 'document_details', 30_000);
    const step = await until(() => deep(widget, 'idv-document-step'), 4000, 'document step');
    const summary = await until(() => deep(step, 'dl.read'), 20_000, 'the summary of what was read');
    expect(deep(step, 'form'), 'no form to type the details into').to.equal(null);
    const text = summary.textContent?.replace(/\s+/g, ' ') ?? '';
    for (const value of [PASSPORT.lastName, PASSPORT.firstNames, PASSPORT.documentNumber]) {
      expect(text, `the summary shows ${value}`).to.include(value);
    }
    await clickButton(step, /Yes, continue/, '"Yes, continue"');
    let idDocument = '';
    for (const deadline = performance.now() + 20_000; performance.now() < deadline; ) {
      const { body } = await readSession(session.session_id);
      idDocument = body['steps']?.find((s: { step: string }) => s.step === 'id_document')?.status ?? '';
      if (idDocument === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(idDocument, 'the identity document step completed').to.equal('completed');
    // By camera: the one photo kept is the camera's frame, 1280×720.
    const documents = (await readEvidence(session.session_id)).filter((u) => u.kind === 'document');
    expect(documents.map((u) => [u.stored.width, u.stored.height])).to.deep.equal([[1280, 720]]);
  });
});
