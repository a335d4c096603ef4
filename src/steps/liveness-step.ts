import { css, html, type PropertyDeclarations } from 'lit';
import type { LivenessChallenge } from '../api/verify-types.ts';
import { type EncodeOptions, encodeJpeg, prepareImageFile } from '../capture/encode-jpeg.ts';
import { CameraController } from '../controllers/camera-controller.ts';
import type { CameraIssue, CaptureMode } from '../flow/flow-types.ts';
import { actionPrompt } from './liveness-actions.ts';
import { StepElement } from './step-element.ts';

/** A face needs fewer pixels than fine print: smaller frames upload faster on mobile data. */
const SELFIE_ENCODE: EncodeOptions = { maxBytes: 350_000, maxLongSide: 1280, minLongSide: 640 };

type Phase = 'intro' | 'capture' | 'checking';

/**
 * Liveness: the server's challenge (a random sequence of actions) prompted one at a time with the front
 * camera, one frame per action, then sent together. Without a camera, one selfie file per action.
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
      }
      .prompt {
        font-size: 1.25rem;
        font-weight: 600;
        margin-block: 0.75rem;
      }
      progress {
        inline-size: 100%;
        max-inline-size: 22rem;
        accent-color: var(--idv-color-primary);
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    captureMode: { attribute: false },
    cameraIssue: { attribute: false },
    allowUpload: { attribute: false },
    challenge: { state: true },
    phase: { state: true },
    frames: { state: true },
    retryMessage: { state: true },
  };

  declare captureMode: CaptureMode;
  declare cameraIssue: CameraIssue | null;
  declare allowUpload: boolean;
  declare challenge: LivenessChallenge | null;
  declare phase: Phase;
  declare frames: Blob[];
  declare retryMessage: string;

  readonly camera = new CameraController(this, { facing: 'user', idealWidth: 1280 });

  constructor() {
    super();
    this.captureMode = 'camera';
    this.cameraIssue = null;
    this.allowUpload = true;
    this.challenge = null;
    this.phase = 'intro';
    this.frames = [];
    this.retryMessage = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.challenge) void this.#newChallenge();
  }

  async #newChallenge(): Promise<void> {
    const result = await this.run((api) => api.createLivenessChallenge());
    if (result) {
      this.challenge = result.value;
      this.frames = [];
    }
  }

  async #start(): Promise<void> {
    if (!this.challenge || Date.parse(this.challenge.expires_at) <= Date.now()) await this.#newChallenge();
    if (!this.challenge) return;
    this.phase = 'capture';
    this.retryMessage = '';
    if (this.captureMode !== 'camera') return;
    const status = await this.camera.start();
    if (status === 'denied' || status === 'unavailable') {
      this.emitFlow({ type: 'camera_failed', reason: status });
      return;
    }
    await this.updateComplete;
    const video = this.renderRoot.querySelector('video');
    if (video) await this.camera.attach(video);
  }

  /** Captures the frame for the current action (the Capture button, or one file per action). */
  async addFrame(frame: Blob): Promise<void> {
    const challenge = this.challenge;
    if (!challenge) return;
    this.frames = [...this.frames, frame];
    if (this.frames.length < challenge.actions.length) return;
    this.camera.stop();
    this.phase = 'checking';
    const frames = this.frames;
    const result = await this.run((api) => api.submitLiveness(challenge.challenge_id, frames));
    if (!result) {
      this.phase = 'intro';
      this.frames = [];
      return;
    }
    if (result.value.status === 'accepted') {
      this.emitFlow({ type: 'step_completed', step: 'liveness' });
      return;
    }
    // A challenge is single-use: the next attempt needs a fresh one.
    this.retryMessage = result.value.user_message ?? this.t('livenessRetry');
    this.phase = 'intro';
    this.challenge = null;
    await this.#newChallenge();
    this.retryMessage += ` ${this.t('attemptsRemaining', { count: result.value.attempts_remaining })}`;
  }

  async #shoot(): Promise<void> {
    const video = this.renderRoot.querySelector('video');
    if (!video?.videoWidth) return;
    await this.addFrame(await encodeJpeg(video, video.videoWidth, video.videoHeight, SELFIE_ENCODE));
  }

  async #onFile(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const blob = await prepareImageFile(file, SELFIE_ENCODE);
    if (!blob) {
      this.errorMessage = this.t('captureFileType');
      return;
    }
    this.errorMessage = '';
    await this.addFrame(blob);
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
    const camera = this.captureMode === 'camera';
    return html`
      <p id="progress">${progress}</p>
      <progress max=${actions.length} .value=${this.frames.length} aria-labelledby="progress"></progress>
      <p class="prompt" aria-live="assertive">${t(actionPrompt(action))}</p>
      ${
        camera
          ? html`<div class="frame">
                <video part="video" aria-label=${t('captureVideo')} muted playsinline autoplay></video>
                <div class="oval" aria-hidden="true"></div>
              </div>
              <div class="actions">
                <button
                  part="button primary shutter"
                  ?disabled=${this.camera.status !== 'streaming' || this.busy}
                  @click=${() => this.#shoot()}
                >
                  ${t('livenessCapture')}
                </button>
              </div>`
          : html`${this.cameraIssue ? html`<p role="status">${t(this.cameraIssue === 'denied' ? 'captureDenied' : 'captureUnavailable')}</p>` : null}
              <p class="muted">${t('livenessUploadHint')}</p>
              <div class="field">
                <label for="selfie">${t('captureChooseFile')}</label>
                <input
                  id="selfie"
                  type="file"
                  accept="image/jpeg,image/png,image/webp"
                  capture="user"
                  @change=${this.#onFile}
                />
              </div>`
      }
    `;
  }
}
