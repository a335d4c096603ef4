import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import type { FaceGuide } from '../../../src/liveness/face-guide.ts';
import { loadFaceGuide } from '../../../src/liveness/face-guide.ts';
import { HUMAN_VERSION } from '../../../src/liveness/vision-assets-url.ts';
import type { LivenessStep } from '../../../src/steps/liveness-step.ts';
import { deep, until } from '../support/dom.ts';
import {
  chooseDocumentType,
  clickButton,
  completion,
  confirmReadDetails,
  giveConsent,
  answerLivenessUntilAccepted,
  mountWidget,
  onScreen,
  submitOnReview,
  uploadDocumentSide,
  where,
} from './support/drive-widget.ts';
import { photoAgain, poseStill, specimen } from './support/fixture-files.ts';
import { createSession, readEvidence, readResult } from './support/tenant-server.ts';

/**
 * The one model-heavy browser file, in its own group (web-test-runner.config.mjs, `face-camera`):
 * Chromium's fake camera plays the astronaut holding one pose after another (test/fixtures/fake-camera.ts,
 * `writeFaceCamera`), the widget's face model runs in the page, and the real server judges the frames
 * with its own models. `npx web-test-runner --group face-camera`.
 */

const POSES = ['turn_left', 'turn_right', 'look_up', 'smile', 'blink'] as const;

async function canvasOf(file: Blob, width = 640, height = 480): Promise<HTMLCanvasElement> {
  const bitmap = await createImageBitmap(file);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return canvas;
}

/** Two looks at the same frame, as two frames of a person holding still: is it time to shoot? */
async function readyOn(guide: FaceGuide, action: string, frame: HTMLCanvasElement) {
  const follow = await guide.follow(action);
  const first = await follow.look(frame);
  const second = await follow.look(frame);
  return { issue: second.issue, ready: second.ready, firstReady: first.ready };
}

describe('the liveness face guide (Human in the page, from the served node_modules)', () => {
  let guide: FaceGuide;
  const stills = new Map<string, HTMLCanvasElement>();

  before(async function () {
    this.timeout(60_000);
    for (const pose of ['neutral', ...POSES]) stills.set(pose, await canvasOf(await poseStill(pose)));
    const started = performance.now();
    guide = await loadFaceGuide(`${location.origin}/__vision__/sdk/vision/human-${HUMAN_VERSION}/`);
    console.log(`face guide loaded in ${Math.round(performance.now() - started)} ms (${guide.backend})`);
  });

  it('loads under the hosted page CSP, which allows WebAssembly and nothing more', async function () {
    this.timeout(60_000);
    const frame = document.createElement('iframe');
    frame.src = '/__csp__/face-guide.html';
    document.body.append(frame);
    try {
      const win = () =>
        frame.contentWindow as
          | (Window & {
              __faceGuide?: { backend?: string; ms?: number; error?: string };
              __cspViolations?: string[];
            })
          | null;
      const outcome = await until(() => win()?.__faceGuide, 50_000, 'face guide in the CSP page');
      expect(outcome.error, outcome.error).to.equal(undefined);
      expect(outcome.backend).to.equal('wasm');
      expect(win()?.__cspViolations).to.deep.equal([]);
      console.log(`face guide under the hosted CSP: ${outcome.ms} ms`);
    } finally {
      frame.remove();
    }
  });

  for (const pose of POSES) {
    it(`shoots ${pose} when the astronaut does it, on the second look`, async () => {
      const verdict = await readyOn(guide, pose, stills.get(pose) as HTMLCanvasElement);
      expect(verdict).to.deep.equal({ issue: null, ready: true, firstReady: false });
    });
  }

  it('waits while the astronaut faces the camera, for every action but a smile (the astronaut smiles)', async () => {
    const neutral = stills.get('neutral') as HTMLCanvasElement;
    for (const action of ['turn_left', 'turn_right', 'look_up', 'blink']) {
      expect(await readyOn(guide, action, neutral), action).to.deep.include({ issue: null, ready: false });
    }
  });

  it('tells left from right on the unmirrored frame: the person’s own left', async () => {
    const left = stills.get('turn_left') as HTMLCanvasElement;
    const right = stills.get('turn_right') as HTMLCanvasElement;
    expect((await readyOn(guide, 'turn_right', left)).ready).to.equal(false);
    expect((await readyOn(guide, 'turn_left', right)).ready).to.equal(false);
  });

  it('asks for a face, for only one face, and for a closer one', async () => {
    const neutral = stills.get('neutral') as HTMLCanvasElement;
    const empty = document.createElement('canvas');
    empty.width = 640;
    empty.height = 480;
    const ctx = empty.getContext('2d') as CanvasRenderingContext2D;
    ctx.fillStyle = '#8a9099';
    ctx.fillRect(0, 0, 640, 480);
    expect((await readyOn(guide, 'turn_left', empty)).issue).to.equal('no_face');

    // Two people side by side, each at half size, in a frame of the camera's proportions.
    const two = document.createElement('canvas');
    two.width = 640;
    two.height = 480;
    const twoCtx = two.getContext('2d') as CanvasRenderingContext2D;
    twoCtx.fillStyle = '#8a9099';
    twoCtx.fillRect(0, 0, 640, 480);
    twoCtx.drawImage(neutral, 0, 120, 320, 240);
    twoCtx.drawImage(neutral, 320, 120, 320, 240);
    expect((await readyOn(guide, 'turn_left', two)).issue).to.equal('several_faces');

    const far = document.createElement('canvas');
    far.width = 1920;
    far.height = 1440;
    const farCtx = far.getContext('2d') as CanvasRenderingContext2D;
    farCtx.fillStyle = '#8a9099';
    farCtx.fillRect(0, 0, 1920, 1440);
    farCtx.drawImage(neutral, 640, 480);
    expect((await readyOn(guide, 'turn_left', far)).issue).to.equal('move_closer');
  });
});

describe('end to end: the astronaut in front of the camera → a decision by the real checks', () => {
  let el: IdVerifyElement | null = null;
  afterEach(() => {
    el?.remove();
    el = null;
  });

  it('uploads the passport, answers liveness by camera with guidance, and is approved with liveness and face match passed', async function () {
    this.timeout(240_000);
    const timings: Record<string, number> = {};
    const started = performance.now();
    const mark = (name: string) => {
      timings[name] = Math.round(performance.now() - started);
    };
    let attemptNumber = 1;
    const passport = await specimen('passport-astronaut.jpg');
    const fields = passport.fields;
    if (!fields) throw new Error('the passport specimen states no fields');
    const session = await createSession({
      country: 'NLD',
      flow: 'user',
      tier: 'tier2',
      // The same end-user as camera-denied-upload.test.ts, with the same passport: a second verification,
      // not another person using her document number.
      external_user_reference: 'e2e-astronaut',
    });
    const widget = mountWidget(session.verify_url);
    el = widget;
    const errors: string[] = [];
    widget.addEventListener('idv-error', (e) => errors.push((e as CustomEvent).detail.code));
    const completed = completion(widget, 230_000);

    await giveConsent(widget);
    await chooseDocumentType(widget, 'passport');
    await onScreen(widget, 'document_front');
    // The camera shows a face, not a passport: the end-user picks the passport's photo instead.
    const capture = () => deep(widget, 'idv-document-step', 'idv-capture-view');
    await clickButton(capture(), /Upload a file instead/, '"Upload a file instead"');
    await uploadDocumentSide(widget, await photoAgain(passport.photo));
    mark('document_uploaded');

    // The server read the passport's zone: the end-user checks it rather than typing it.
    const details = await confirmReadDetails(widget, {
      first_name: fields.first_name,
      last_name: fields.last_name,
      date_of_birth: fields.date_of_birth,
      document_number: fields.document_number,
      expiry_date: fields.expiry_date,
    });
    expect(details, 'the server read the passport zone: no form to fill').to.equal('summary');
    mark('details_done');

    // Liveness: the file picker chosen for the document does not carry over, the selfie check opens the
    // camera. Nobody presses Capture: each frame is taken when the device sees the action.
    let live: LivenessStep | null = null;
    let firstAttempt = true;
    const attempts = await answerLivenessUntilAccepted(widget, async (step, actions) => {
      live = step as unknown as LivenessStep;
      const current = live;
      if (firstAttempt) {
        firstAttempt = false;
        expect(current.shadowRoot?.querySelector('input[type=file]'), 'no still photos').to.equal(null);
        await until(
          () => current.guidance === 'ready' || current.guidance === 'unavailable',
          60_000,
          'face guide',
        );
        expect(current.guidance, 'the face model loaded from the e2e server').to.equal('ready');
        mark('guide_ready');
        timings['guide_load_ms'] = current.guideLoadMs ?? -1;
        // The guided screen (prompt, live guidance, Capture) is as accessible as the rest.
        await until(() => current.capturing, 30_000, 'guided capture');
        await expect(current).to.be.accessible();
      }
      await until(
        () => current.frames.length >= actions.length || where(widget) !== 'liveness',
        90_000,
        'frames',
      );
      mark(`frames_taken_${attemptNumber++}`);
      expect(current.takenBy, 'every frame taken when the device saw its action').to.deep.equal(
        actions.map(() => 'action'),
      );
    });
    expect(live, 'the liveness step ran').to.not.equal(null);
    const actions = attempts.at(-1) ?? [];

    await submitOnReview(widget);
    const done = await completed;
    mark('decided');
    console.log(`face-camera e2e (${JSON.stringify(attempts)}): ${JSON.stringify(timings)}`);
    expect(errors, 'no idv-error on the way').to.deep.equal([]);
    expect(done).to.deep.equal({ session_id: session.session_id, status: 'approved' });

    const result = await readResult(session.session_id);
    const check = (type: string) => result.body.checks.find((c: { type: string }) => c.type === type);
    expect(result.body.decided_by).to.equal('automated');
    expect(check('liveness')?.status, JSON.stringify(check('liveness'))).to.equal('passed');
    expect(check('face_match')?.status, JSON.stringify(check('face_match'))).to.equal('passed');

    const frames = (await readEvidence(session.session_id)).filter((u) => u.kind === 'liveness_frame');
    expect(frames).to.have.length(attempts.flat().length);
    expect(actions.length).to.be.greaterThan(0);
    for (const frame of frames) {
      expect(frame.stored.format).to.equal('jpeg');
      expect([frame.stored.width, frame.stored.height]).to.deep.equal([640, 480]);
    }
  });
});
