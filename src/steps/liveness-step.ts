import { css, html, type PropertyDeclarations } from 'lit';
import type { LivenessAction, LivenessChallenge } from '../api/verify-api.ts';
import { type EncodeOptions, encodeJpeg } from '../capture/encode-jpeg.ts';
import { CameraController } from '../controllers/camera-controller.ts';
import type { CameraIssue } from '../flow/flow-types.ts';
import { sameFrame } from '../capture/quality/repeated-frames.ts';
import type { ActionGuide, FaceGuide } from '../liveness/face-guide.ts';
import { frameHash } from '../liveness/frame-hash.ts';
import { type FaceMeasure, firstWeakAction, type GuidanceIssue } from '../liveness/face-guidance.ts';
import { actionPrompt, GUIDANCE_TEXT } from './liveness-actions.ts';
import { livenessRetryText } from './liveness-retry-text.ts';
import { StepElement } from './step-element.ts';

/** A face needs fewer pixels than fine print: smaller frames upload faster on mobile data. */
const SELFIE_ENCODE: EncodeOptions = { maxBytes: 350_000, maxLongSide: 1280, minLongSide: 640 };

/** With guidance: how long to wait for the action before taking the frame anyway (the server judges). */
const GUIDED_TIMEOUT_MS = 12_000;
/** Without guidance: the frame is taken this long after the prompt. */
const TIMED_DELAY_MS = 3000;
/** How long Start waits for a face model still downloading before going on without it. */
const GUIDE_WAIT_MS = 10_000;
/** Between two looks at the camera: the model takes 50–150 ms a frame; leave the page room to breathe. */
const LOOK_INTERVAL_MS = 80;
/** After a frame is taken, before the next prompt: time to see the tick and come back to the centre. */
const BETWEEN_ACTIONS_MS = 700;
/**
 * How many times one attempt takes its frames again from an action that does not stand out from the
 * others (firstWeakAction): enough for a person who moved too little to move more when told, and no loop
 * for one who cannot; after that the frames go to the server, which judges them.
 */
const MAX_WEAK_RETAKES = 2;

type Phase = 'intro' | 'capture' | 'checking';
/** How a frame was taken: the action seen on the device, the timer, or the Capture button. */
type TakenBy = 'action' | 'timer' | 'button';

/** Whether the on-device face guidance is in use: `off` (no camera or no model URL), `loading`, `ready`, `unavailable` (failed to load: timed capture). */
export type GuidanceState = 'off' | 'loading' | 'ready' | 'unavailable';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Liveness: the server's challenge (a random sequence of actions) prompted one at a time with the front
 * camera, one frame per action, then sent together. With the on-device face model (loaded from the
 * verify server when this step opens), each frame is taken when the device sees the action, with
 * guidance until then; without it (old browser, blocked), a fixed delay after each prompt. The Capture
 * button takes the frame at once either way. Liveness needs a live camera: still photos chosen from
 * files would let any three pictures pass, so without a camera the step says so and offers to retry
 * (the shell offers to continue on a phone). No tenant setting allows still photos (API.md §9).
 *
 * @csspart video - the front camera preview (mirrored on screen, not in the frame sent)
 */
export class LivenessStep extends StepElement {
  static override styles = [
    ...StepElement.styles,
    css`
      .frame {
        position: relative;
        background: #000;
        border-radius: var(--idv-radius);
        overflow: hidden;
        aspect-ratio: 3 / 4;
        max-inline-size: 22rem;
      }
      video {
        display: block;
        inline-size: 100%;
        block-size: 100%;
        object-fit: cover;
        transform: scaleX(-1);
      }
      .oval {
        position: absolute;
        inset: 12% 18%;
        border: 3px dashed rgb(255 255 255 / 0.85);
        border-radius: 50%;
        pointer-events: none;
        transition: border-color 0.2s;
      }
      .oval.ok {
        border-style: solid;
        border-color: var(--idv-color-success);
      }
      .countdown {
        position: absolute;
        inset-block-end: 0.5rem;
        inset-inline: 0;
        text-align: center;
        font-size: 2rem;
        font-weight: 700;
        color: #fff;
        text-shadow: 0 0 4px #000;
      }
      .prompt {
        font-size: 1.25rem;
        font-weight: 600;
        margin-block: 0.75rem;
      }
      .guidance {
        min-height: 1.5em;
        font-weight: 600;
      }
      progress {
        inline-size: 100%;
        max-inline-size: 22rem;
        accent-color: var(--idv-color-primary);
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    locale: { attribute: false },
    cameraIssue: { state: true },
    visionBase: { attribute: false },
    challenge: { state: true },
    phase: { state: true },
    frames: { state: true },
    retryMessage: { state: true },
    guidance: { state: true },
    issue: { state: true },
    faceOk: { state: true },
    countdown: { state: true },
    capturing: { state: true },
    repeated: { state: true },
  };

  /** The widget's language, set by the shell as on every step; the wording itself comes through `t`. */
  declare locale: string;
  /** The camera could not be opened at the last Start. */
  declare cameraIssue: CameraIssue | null;
  /** `…/sdk/vision/human-<version>/` on the verify server, or null for no on-device guidance. */
  declare visionBase: string | null;
  declare challenge: LivenessChallenge | null;
  declare phase: Phase;
  declare frames: Blob[];
  declare retryMessage: string;
  declare guidance: GuidanceState;
  /** What the end-user should change (shown once it held for two looks, so it does not flicker). */
  declare issue: GuidanceIssue | null;
  /** One still face, close enough: the oval turns solid. */
  declare faceOk: boolean;
  /** Seconds until the timed frame (no guidance), null otherwise. */
  declare countdown: number | null;
  /** The capture loop runs: the Capture button works. */
  declare capturing: boolean;
  /** The last frame the loop was about to take showed the same picture as an earlier action's. */
  declare repeated: boolean;

  readonly camera = new CameraController(this, { facing: 'user', idealWidth: 1280 });
  /** Milliseconds the face model took to load (import, models, warm-up), for diagnostics; null until loaded. */
  guideLoadMs: number | null = null;
  /** How each camera frame of the current attempt was taken: the action seen, the timer, or Capture. */
  takenBy: TakenBy[] = [];
  /** The perceptual hash of each frame of this attempt, null where the canvas could not be read. */
  #hashes: (string | null)[] = [];
  /** The face the model saw on each frame of this attempt, null where it did not look (timer, Capture). */
  #measures: (FaceMeasure | null)[] = [];
  /** How many times this attempt went back to an action that did not stand out (MAX_WEAK_RETAKES). */
  #weakRetakes = 0;
  #guide: Promise<FaceGuide | null> | null = null;
  #readyGuide: FaceGuide | null = null;
  /** Aborts the capture loop (new attempt, step left). */
  #run: AbortController | null = null;
  #shootNow = false;
  #snapshot: HTMLCanvasElement | null = null;

  constructor() {
    super();
    this.locale = 'en';
    this.cameraIssue = null;
    this.visionBase = null;
    this.challenge = null;
    this.phase = 'intro';
    this.frames = [];
    this.retryMessage = '';
    this.guidance = 'off';
    this.issue = null;
    this.faceOk = false;
    this.countdown = null;
    this.capturing = false;
    this.repeated = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // After the first update: defined late (a lazy chunk), the element gets the properties the shell
    // set before then (its API client) only when it first updates.
    void this.updateComplete.then(() => {
      if (!this.challenge && this.isConnected) void this.#newChallenge();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#run?.abort();
  }

  async #newChallenge(): Promise<void> {
    const result = await this.run((api) => api.createLivenessChallenge());
    if (result) {
      this.challenge = result.value;
      this.frames = [];
      this.#loadGuide();
    }
  }

  /** Starts the face model's download once, when the step is shown with a camera and a model URL. */
  #loadGuide(): void {
    if (this.#guide || !this.visionBase) return;
    const base = this.visionBase;
    const started = performance.now();
    this.guidance = 'loading';
    const actions = this.challenge?.actions ?? [];
    this.#guide = import('../liveness/face-guide.ts')
      .then(({ loadFaceGuide }) => loadFaceGuide(base, actions))
      .then(
        (guide) => {
          this.guideLoadMs = Math.round(performance.now() - started);
          this.#readyGuide = guide;
          this.guidance = 'ready';
          return guide;
        },
        () => {
          // No WebAssembly, a CSP without 'wasm-unsafe-eval', files not served: timed capture instead.
          this.guidance = 'unavailable';
          return null;
        },
      );
  }

  async #start(): Promise<void> {
    if (!this.challenge || Date.parse(this.challenge.expires_at) <= Date.now()) await this.#newChallenge();
    if (!this.challenge) return;
    this.phase = 'capture';
    this.retryMessage = '';
    this.cameraIssue = null;
    await this.#startCamera();
  }

  async #startCamera(): Promise<void> {
    this.#loadGuide();
    const status = await this.camera.start();
    if (status === 'denied' || status === 'unavailable') {
      this.cameraIssue = status;
      this.emitFlow({ type: 'camera_failed', reason: status });
      return;
    }
    await this.updateComplete;
    const video = this.renderRoot.querySelector('video');
    if (!video) return;
    await this.camera.attach(video);
    if (this.#guide && !this.#readyGuide) await Promise.race([this.#guide, wait(GUIDE_WAIT_MS)]);
    if (this.phase !== 'capture' || !this.isConnected) return;
    void this.#captureActions(video);
    // Start is gone: keyboard focus goes to the Capture button rather than to the page.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('button[part~="shutter"]')?.focus();
  }

  /** One frame per remaining action, each taken when the action is seen, on time, or on Capture. */
  async #captureActions(video: HTMLVideoElement): Promise<void> {
    this.#run?.abort();
    const run = new AbortController();
    this.#run = run;
    const actions = this.challenge?.actions ?? [];
    this.#shootNow = false;
    this.repeated = false;
    this.capturing = true;
    if (this.frames.length === 0) {
      this.takenBy = [];
      this.#hashes = [];
      this.#measures = [];
      this.#weakRetakes = 0;
    }
    try {
      while (!run.signal.aborted && this.phase === 'capture' && this.frames.length < actions.length) {
        const frame = await this.#captureAction(actions[this.frames.length] ?? '', video, run.signal);
        if (frame === 'retake') continue;
        if (!frame || run.signal.aborted) return;
        const done = this.frames.length + 1 >= actions.length;
        const weak = done ? firstWeakAction(actions, this.#measures) : -1;
        if (weak >= 0 && this.#weakRetakes < MAX_WEAK_RETAKES) {
          // An action that does not stand out from the others as the server judges it (a turn only a
          // little more than the head's rest in the other frames): the server would answer
          // `not_performed` and count the attempt. Taken again from that action, the person told why.
          this.#weakRetakes++;
          this.repeated = true;
          this.#rewindTo(weak);
          continue;
        }
        await this.addFrame(frame);
        if (!done) await wait(BETWEEN_ACTIONS_MS);
      }
    } finally {
      if (this.#run === run) this.capturing = false;
    }
  }

  async #captureAction(
    action: LivenessAction,
    video: HTMLVideoElement,
    signal: AbortSignal,
  ): Promise<Blob | 'retake' | null> {
    this.issue = null;
    this.faceOk = false;
    let guide: ActionGuide | null = null;
    if (this.#readyGuide) guide = await this.#readyGuide.follow(action).catch(() => null);
    let started = performance.now();
    let limit = guide ? GUIDED_TIMEOUT_MS : TIMED_DELAY_MS;
    let pending: GuidanceIssue | null = null;
    // The face the model saw on the frame it fired on: what firstWeakAction compares.
    let seen: FaceMeasure | null = null;
    for (;;) {
      await wait(LOOK_INTERVAL_MS);
      if (signal.aborted) return null;
      if (!video.videoWidth) continue;
      const frame = this.#snap(video);
      const elapsed = performance.now() - started;
      let by: TakenBy | null = this.#shootNow ? 'button' : elapsed >= limit ? 'timer' : null;
      if (!by && !guide) {
        this.countdown = Math.ceil((limit - elapsed) / 1000);
        continue;
      }
      if (!by && guide) {
        try {
          const verdict = await guide.look(frame);
          if (signal.aborted) return null;
          this.faceOk = verdict.issue === null;
          // An issue is shown once two looks agree, and cleared at once.
          if (verdict.issue === null || verdict.issue === pending) this.issue = verdict.issue;
          pending = verdict.issue;
          if (verdict.ready) {
            by = 'action';
            seen = verdict.face;
          }
        } catch {
          // The model failed mid-way: the prompts carry on, timed.
          guide = null;
          this.#readyGuide = null;
          this.guidance = 'unavailable';
          this.issue = null;
          this.faceOk = false;
          started = performance.now();
          limit = TIMED_DELAY_MS;
        }
      }
      if (!by) continue;
      const hash = frameHash(frame);
      const earlier = this.#sameAs(hash);
      if (earlier >= 0 && by === 'action' && this.takenBy[earlier] === 'action') {
        // The face model saw this action in the very picture it saw an earlier one in: the person still
        // holds that pose. Not taken; the model looks on (the timer runs on) until the picture changes.
        this.repeated = true;
        continue;
      }
      if (earlier >= 0) {
        // The same picture as an earlier action's frame, one of them taken by the timer or by Capture:
        // one of the two does not show its action (the timer took a frame before the person moved, or
        // the person held still), and the server would send the set back as `frames_repeated` and count
        // the attempt. Neither is kept: the frames from that earlier action on are taken again, with the
        // prompts, and the person is told why.
        this.#shootNow = false;
        this.repeated = true;
        this.#rewindTo(earlier);
        return 'retake';
      }
      this.repeated = false;
      this.#hashes.push(hash);
      this.#measures.push(by === 'action' ? seen : null);
      return this.#encode(frame, by);
    }
  }

  /** Drops the frames of this attempt from action `index` on: they are taken again, with the prompts. */
  #rewindTo(index: number): void {
    this.frames = this.frames.slice(0, index);
    this.takenBy = this.takenBy.slice(0, index);
    this.#hashes = this.#hashes.slice(0, index);
    this.#measures = this.#measures.slice(0, index);
  }

  /** The first earlier frame of this attempt that shows the same picture as `hash` (the device's limit), or -1. */
  #sameAs(hash: string | null): number {
    if (hash === null) return -1;
    return this.#hashes.findIndex((earlier) => earlier !== null && sameFrame(earlier, hash, 'device'));
  }

  /** The video's current frame on a canvas: the one the model looks at is the one sent. */
  #snap(video: HTMLVideoElement): HTMLCanvasElement {
    this.#snapshot ??= document.createElement('canvas');
    const canvas = this.#snapshot;
    if (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
    }
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    return canvas;
  }

  async #encode(frame: HTMLCanvasElement, by: TakenBy): Promise<Blob> {
    // A press during the pause after a frame counts for the next action (kept until a frame is taken).
    this.#shootNow = false;
    this.takenBy = [...this.takenBy, by];
    this.countdown = null;
    this.issue = null;
    return encodeJpeg(frame, frame.width, frame.height, SELFIE_ENCODE);
  }

  /** Captures the frame for the current action (the capture loop, or one file per action). */
  async addFrame(frame: Blob): Promise<void> {
    const challenge = this.challenge;
    if (!challenge) return;
    this.frames = [...this.frames, frame];
    if (this.frames.length < challenge.actions.length) return;
    this.#run?.abort();
    this.camera.stop();
    this.phase = 'checking';
    const frames = this.frames;
    const result = await this.run((api) => api.submitLiveness(challenge.challenge_id, frames));
    if (!result) {
      this.phase = 'intro';
      this.frames = [];
      return;
    }
    const accepted = result.value.status === 'accepted';
    // The shell shows the attempts left, and the final screen when none are. Frames refused for capture
    // quality were never judged and cost nothing: not a failed attempt.
    const free = result.value.reason === 'capture_quality' || result.value.reason === 'frame_undecodable';
    this.reportAttempts('liveness', result.value, !accepted && !free);
    if (accepted) {
      this.emitFlow({ type: 'step_completed', step: 'liveness' });
      return;
    }
    this.retryMessage = livenessRetryText(result.value, this.t);
    this.phase = 'intro';
    this.challenge = null;
    if (result.value.attempts_remaining > 0) await this.#newChallenge();
  }

  override render() {
    const { t } = this;
    const actions = this.challenge?.actions ?? [];
    return html`
      <h2 tabindex="-1">${t('livenessTitle')}</h2>
      ${this.retryMessage ? html`<p class="error" role="alert">${this.retryMessage}</p>` : null}
      ${this.errorMessage ? html`<p class="error" role="alert">${this.errorMessage}</p>` : null}
      ${this.phase === 'intro' ? this.#renderIntro(actions.length) : null}
      ${this.phase === 'capture' ? this.#renderCapture(actions) : null}
      ${this.phase === 'checking' ? html`<div class="spinner" aria-hidden="true"></div><p role="status">${t('livenessChecking')}</p>` : null}
    `;
  }

  #renderIntro(count: number) {
    const { t } = this;
    return html`
      <p>${count ? t('livenessIntro', { count }) : t('loading')}</p>
      <div class="actions">
        <button part="button primary" ?disabled=${this.busy || !count} @click=${() => this.#start()}>
          ${t('livenessStart')}
        </button>
      </div>
    `;
  }

  #renderCapture(actions: readonly string[]) {
    const { t } = this;
    const index = Math.min(this.frames.length, actions.length - 1);
    const action = actions[index] ?? '';
    const progress = t('livenessProgress', { current: index + 1, total: actions.length });
    if (this.cameraIssue) {
      return html`<p role="alert">${t('livenessNeedsCamera')}</p>
        <div class="actions">
          <button part="button primary" @click=${() => this.#start()}>${t('retry')}</button>
        </div>`;
    }
    const guided = this.guidance === 'ready';
    const streaming = this.camera.status === 'streaming';
    return html`
      <p id="progress">${progress}</p>
      <progress max=${actions.length} .value=${this.frames.length} aria-labelledby="progress"></progress>
      <p class="prompt" aria-live="assertive">${t(actionPrompt(action))}</p>
      <p class="muted">${
        !streaming
          ? t('captureRequesting')
          : guided
            ? t('livenessAutoHint')
            : this.guidance === 'loading'
              ? t('livenessPreparing')
              : t('livenessTimedHint', { seconds: TIMED_DELAY_MS / 1000 })
      }</p>
              <div class="frame">
                <video part="video" aria-label=${t('captureVideo')} muted playsinline autoplay></video>
                <div class="oval ${guided && this.faceOk ? 'ok' : ''}" aria-hidden="true"></div>
                ${this.countdown ? html`<div class="countdown" aria-hidden="true">${this.countdown}</div>` : null}
              </div>
              <p class="guidance" role="status">${
                this.repeated
                  ? t('livenessRetryMovements')
                  : guided && this.issue
                    ? t(GUIDANCE_TEXT[this.issue])
                    : ''
              }</p>
              <div class="actions">
                <button
                  part="button primary shutter"
                  ?disabled=${!streaming || !this.capturing || this.busy}
                  @click=${() => {
                    this.#shootNow = true;
                  }}
                >
                  ${t('livenessCapture')}
                </button>
              </div>
    `;
  }
}
