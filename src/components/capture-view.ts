import { css, html, LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { IdDocumentType, Side } from '../api/verify-api.ts';
import { mrzLines } from '../capture/mrz-formats.ts';
import { prepareImageFile } from '../capture/encode-jpeg.ts';
import type { FrameIssue, FrameQuality } from '../capture/frame-quality.ts';
import { type CameraFacing, CameraController } from '../controllers/camera-controller.ts';
import type { CameraIssue, CaptureMode } from '../flow/flow-types.ts';
import type { MessageKey } from '../i18n/en.ts';
import { FALLBACK_TRANSLATE, type Translate } from '../i18n/localize.ts';
import { CameraFailedEvent, CapturedEvent, CaptureModeEvent } from './capture-events.ts';
import { sharedStyles } from './shared-styles.ts';

/** Guidance per issue, most important first (a dark frame is also "blurry"; say "brighter"). */
const GUIDANCE: [FrameIssue | 'too_small', MessageKey][] = [
  ['no_document', 'guideNoDocument'],
  ['too_dark', 'guideTooDark'],
  ['glare', 'guideGlare'],
  ['too_small', 'guideTooSmall'],
  ['blurry', 'guideBlurry'],
];

/** Whether the browser can decode `blob` as a picture. */
function opensAsImage(blob: Blob): Promise<boolean> {
  return createImageBitmap(blob).then(
    (bitmap) => {
      bitmap.close();
      return true;
    },
    () => false,
  );
}

/** How long frames must stay good before the shutter fires by itself. */
const AUTO_CAPTURE_MS = 1000;
/** Analysis cadence: ~8 checks a second is smooth guidance at a fraction of a core. */
const ANALYSIS_INTERVAL_MS = 120;

/**
 * Camera capture with live quality guidance, auto-capture and a manual shutter, or a file input when
 * the camera is unavailable or the end-user prefers it. Ends with a preview to accept or retake.
 *
 * @csspart video - the live camera preview
 * @csspart preview - the captured photo
 */
export class CaptureView extends LitElement {
  /*
   * The live frame is a size container no taller than 70 % of the screen (a phone held sideways still
   * sees all of it). In it, the guide is the document's outline at its real shape, as large as fits
   * with a margin (88 % of the width or 84 % of the height), centred by auto margins (so the same in
   * RTL), with ISO/IEC 7810 corners (3.18 mm on 85.6 mm). Shapes (width / height) and the MRZ band's
   * share of the height (its effective reading zone, ICAO Doc 9303): ID-1 cards 85.60 × 53.98 mm with
   * 17.9 mm (--guide-ratio 1.5858, --mrz-share 0.3316); the TD3 passport page (`.td3`) 125 × 88 mm with
   * 23.2 mm (1.4205, 0.2636). Each MRZ line is drawn as a row of dots, like characters. The only motion
   * is the colour change when the frame is good, which the shared styles cut under reduced motion.
   */
  static override styles = [
    sharedStyles,
    css`
      .frame {
        position: relative;
        background: #000;
        border-radius: var(--idv-radius);
        overflow: hidden;
        aspect-ratio: 16 / 9;
      }
      .frame.selfie {
        aspect-ratio: 3 / 4;
        max-inline-size: 22rem;
      }
      /* A photo to check is shown whole, whatever its shape: no crop to the camera's frame. */
      .frame.still {
        aspect-ratio: auto;
      }
      .still img {
        block-size: auto;
        max-block-size: 70vh;
        object-fit: contain;
      }
      video,
      img {
        display: block;
        inline-size: 100%;
        block-size: 100%;
        object-fit: cover;
      }
      .selfie video {
        /* Mirror the front camera so moving left moves left on screen; the captured frame is not mirrored. */
        transform: scaleX(-1);
      }
      .frame.live {
        container-type: size;
        max-block-size: 70vh;
        --guide-ratio: 1.5858;
        --mrz-share: 0.3316;
      }
      .frame.td3 {
        --guide-ratio: 1.4205;
        --mrz-share: 0.2636;
      }
      .guide {
        --w: min(88cqi, 84cqb * var(--guide-ratio));
        position: absolute;
        inset: 0;
        margin: auto;
        inline-size: var(--w);
        block-size: calc(var(--w) / var(--guide-ratio));
        border: 3px dashed rgb(255 255 255 / 0.85);
        border-radius: calc(var(--w) * 0.037);
        pointer-events: none;
        display: flex;
        flex-direction: column;
        justify-content: flex-end;
        transition: border-color 0.2s;
      }
      .guide.good {
        border-style: solid;
        border-color: var(--idv-color-success);
      }
      .mrz {
        block-size: calc(var(--mrz-share) * 100%);
        padding: 2% 4%;
        display: flex;
        flex-direction: column;
        justify-content: space-evenly;
        border-block-start: 1px dashed;
        color: rgb(255 255 255 / 0.7);
      }
      .mrz span {
        border-block-end: 0.3em dotted;
      }
      .guidance {
        min-height: 1.5em;
        font-weight: 600;
        margin-block: 0.75rem;
      }
    `,
  ];

  static override properties: PropertyDeclarations = {
    facing: { attribute: false },
    mode: { attribute: false },
    allowUpload: { attribute: false },
    cameraIssue: { attribute: false },
    guidance: { attribute: false },
    autoCapture: { attribute: false },
    documentType: { attribute: false },
    side: { attribute: false },
    label: { attribute: false },
    t: { attribute: false },
    preview: { state: true },
    quality: { state: true },
    fileError: { state: true },
  };

  declare facing: CameraFacing;
  declare mode: CaptureMode;
  declare allowUpload: boolean;
  declare cameraIssue: CameraIssue | null;
  /** Analyse frames, guide and auto-capture (documents); off for selfies. */
  declare guidance: boolean;
  /**
   * Fire the shutter by itself after a second of good frames. The parent turns it off after the server
   * refused a photo, until the person acts: the guidance and the shutter button stay.
   */
  declare autoCapture: boolean;
  /** The document in front of the camera: the guide takes its shape (ID-1 when null). */
  declare documentType: IdDocumentType | null;
  /** Which side of it: a card's machine-readable zone is on its back. */
  declare side: Side;
  declare label: string;
  declare t: Translate;
  declare preview: { blob: Blob; url: string } | null;
  declare quality: FrameQuality | null;
  /** Why the chosen file cannot be used (wrong type or size, or not a picture a browser can open). */
  declare fileError: MessageKey | null;

  camera: CameraController | null = null;
  /** Duration of the last frame analysis (draw + read + score), for diagnostics and the perf test. */
  lastAnalysisMs = 0;
  #goodSince = 0;
  #timer = 0;
  #lastAnalysis = 0;

  constructor() {
    super();
    this.facing = 'environment';
    this.mode = 'camera';
    this.allowUpload = true;
    this.cameraIssue = null;
    this.guidance = true;
    this.autoCapture = true;
    this.documentType = null;
    this.side = 'front';
    this.label = '';
    this.t = FALLBACK_TRANSLATE;
    this.preview = null;
    this.quality = null;
    this.fileError = null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopLoop();
    this.#revoke();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The controller is created lazily: its facing mode is fixed per stream.
    if (changed.has('facing') || !this.camera) {
      this.camera?.stop();
      this.camera = new CameraController(this, { facing: this.facing });
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Turned back on: the second of good frames counts from now, never from before the pause.
    if (changed.has('autoCapture')) this.#goodSince = 0;
    if (changed.has('mode') || changed.has('facing')) {
      if (this.mode === 'camera') void this.#startCamera();
      else {
        this.#stopLoop();
        this.camera?.stop();
      }
    }
  }

  async #startCamera(): Promise<void> {
    const camera = this.camera;
    if (!camera) return;
    const status = await camera.start();
    if (status === 'denied' || status === 'unavailable') {
      this.dispatchEvent(new CameraFailedEvent(status));
      return;
    }
    if (status !== 'streaming') return;
    await this.updateComplete;
    const video = this.#video();
    if (!video) return;
    await camera.attach(video);
    this.#startLoop();
  }

  #video(): HTMLVideoElement | null {
    return this.renderRoot.querySelector('video');
  }

  #startLoop(): void {
    this.#stopLoop();
    this.#goodSince = 0;
    const tick = () => {
      this.#timer = requestAnimationFrame(tick);
      const now = performance.now();
      if (now - this.#lastAnalysis < ANALYSIS_INTERVAL_MS) return;
      this.#lastAnalysis = now;
      this.#analyse(now);
    };
    this.#timer = requestAnimationFrame(tick);
  }

  #stopLoop(): void {
    if (this.#timer) cancelAnimationFrame(this.#timer);
    this.#timer = 0;
  }

  #analyse(now: number): void {
    const video = this.#video();
    if (!video || !this.camera || this.preview || !this.guidance) return;
    const t0 = performance.now();
    const quality = this.camera.analyze(video);
    this.lastAnalysisMs = performance.now() - t0;
    if (!quality) return;
    // Only re-render when the advice changes, so screen readers are not flooded.
    if (quality.ok !== this.quality?.ok || quality.issues[0] !== this.quality?.issues[0])
      this.quality = quality;
    if (!quality.ok) {
      this.#goodSince = 0;
      return;
    }
    if (!this.autoCapture) return;
    this.#goodSince ||= now;
    if (now - this.#goodSince >= AUTO_CAPTURE_MS) void this.shoot();
  }

  /** Takes the current frame (the shutter button, and auto-capture). */
  async shoot(): Promise<void> {
    const video = this.#video();
    if (!video || !this.camera || this.preview) return;
    this.#stopLoop();
    const blob = await this.camera.capture(video);
    this.#show(blob);
  }

  #show(blob: Blob): void {
    this.#revoke();
    this.preview = { blob, url: URL.createObjectURL(blob) };
  }

  #revoke(): void {
    if (this.preview) URL.revokeObjectURL(this.preview.url);
  }

  /** Back to live capture (the Retake button, or the parent after the server reported quality issues). */
  async reset(): Promise<void> {
    this.#revoke();
    this.preview = null;
    this.quality = null;
    this.fileError = null;
    await this.updateComplete;
    if (this.mode === 'camera' && this.camera?.status === 'streaming') {
      const video = this.#video();
      if (video) await this.camera.attach(video);
      this.#startLoop();
    }
  }

  async #onFile(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const blob = await prepareImageFile(file);
    // A file named .jpg may hold anything: what the browser cannot open, the server cannot read either.
    const opens = blob ? await opensAsImage(blob) : false;
    this.fileError = !blob ? 'captureFileType' : opens ? null : 'captureFileUnreadable';
    if (blob && opens) this.#show(blob);
  }

  #guidanceText(): string {
    const q = this.quality;
    if (!q) return '';
    if (q.ok) return this.t('guideOk');
    const key = GUIDANCE.find(([issue]) => q.issues.includes(issue as FrameIssue))?.[1];
    return key ? this.t(key) : '';
  }

  override render() {
    const { t } = this;
    if (this.preview) {
      return html`
        <div class="frame still">
          <img part="preview" src=${this.preview.url} alt=${t('capturePreview')} />
        </div>
        <div class="actions">
          <button part="button primary" @click=${() => this.dispatchEvent(new CapturedEvent(this.preview!.blob))}>
            ${t('captureUse')}
          </button>
          <button part="button" class="secondary" @click=${() => this.reset()}>${t('captureRetake')}</button>
        </div>
      `;
    }
    return this.mode === 'camera' ? this.#renderCamera() : this.#renderUpload();
  }

  #renderCamera() {
    const { t } = this;
    const status = this.camera?.status ?? 'idle';
    return html`
      <div class="frame live ${this.facing === 'user' ? 'selfie' : this.documentType === 'passport' ? 'td3' : ''}">
        <video part="video" aria-label=${this.label || t('captureVideo')} muted playsinline autoplay></video>
        ${this.guidance ? this.#renderGuide() : null}
      </div>
      <p class="guidance" aria-live="polite">
        ${status === 'requesting' ? t('captureRequesting') : this.guidance ? this.#guidanceText() : ''}
      </p>
      <div class="actions">
        <button part="button primary shutter" ?disabled=${status !== 'streaming'} @click=${() => this.shoot()}>
          ${t('captureShutter')}
        </button>
        ${
          this.allowUpload
            ? html`<button class="link" @click=${() => this.dispatchEvent(new CaptureModeEvent('upload'))}>
                ${t('captureUploadInstead')}
              </button>`
            : null
        }
      </div>
    `;
  }

  /** The document's outline, with its MRZ lines where the side has them: a picture, not content. */
  #renderGuide() {
    const lines = mrzLines(this.documentType, this.side);
    return html`<div class="guide ${this.quality?.ok ? 'good' : ''}" aria-hidden="true">
      ${lines ? html`<div class="mrz">${Array.from({ length: lines }, () => html`<span></span>`)}</div>` : null}
    </div>`;
  }

  #renderUpload() {
    const { t } = this;
    const issue = this.cameraIssue;
    return html`
      ${issue ? html`<p role="status">${t(issue === 'denied' ? 'captureDenied' : 'captureUnavailable')}</p>` : null}
      ${
        this.allowUpload
          ? html`<div class="field">
              <label for="file">${t('captureChooseFile')}</label>
              <input id="file" type="file" accept="image/jpeg,image/png,image/webp" @change=${this.#onFile} />
            </div>`
          : null
      }
      ${this.fileError ? html`<p class="error" role="alert">${t(this.fileError)}</p>` : null}
      ${
        issue
          ? null
          : html`<button class="link" @click=${() => this.dispatchEvent(new CaptureModeEvent('camera'))}>
              ${t('captureUseCamera')}
            </button>`
      }
    `;
  }
}
