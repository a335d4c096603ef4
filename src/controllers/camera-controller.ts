import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { encodeJpeg } from '../capture/encode-jpeg.ts';
import { analyzeFrame, type FrameQuality } from '../capture/frame-quality.ts';
import { drawAnalysisCopy } from '../capture/analysis-copy.ts';

export type CameraStatus = 'idle' | 'requesting' | 'streaming' | 'denied' | 'unavailable';
export type CameraFacing = 'environment' | 'user';

/**
 * Owns one camera stream for a host element: asks for it, reports status, analyses and captures
 * frames, and stops every track when the host leaves the DOM (otherwise the camera light stays on).
 *
 * @example
 *   class Capture extends LitElement {
 *     camera = new CameraController(this, { facing: 'environment' });
 *     async firstUpdated() { await this.camera.start(); this.camera.attach(this.renderRoot.querySelector('video')!); }
 *   }
 */
export class CameraController implements ReactiveController {
  status: CameraStatus = 'idle';
  stream: MediaStream | null = null;
  readonly #host: ReactiveControllerHost;
  readonly #facing: CameraFacing;
  readonly #idealWidth: number;
  #analysisCanvas: HTMLCanvasElement | null = null;
  #connected = true;

  constructor(host: ReactiveControllerHost, options: { facing: CameraFacing; idealWidth?: number }) {
    this.#host = host;
    this.#facing = options.facing;
    this.#idealWidth = options.idealWidth ?? 1920;
    host.addController(this);
  }

  hostConnected(): void {
    this.#connected = true;
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.stop();
  }

  #set(status: CameraStatus): void {
    this.status = status;
    this.#host.requestUpdate();
  }

  /** Asks for the camera. Resolves with the final status; never throws. */
  async start(): Promise<CameraStatus> {
    if (this.status === 'streaming' || this.status === 'requesting') return this.status;
    const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    // No mediaDevices at all: insecure context (http), old browser, or an iframe without
    // `allow="camera"`: the upload fallback is the only way forward.
    if (!media?.getUserMedia) {
      this.#set('unavailable');
      return this.status;
    }
    this.#set('requesting');
    try {
      // Width only, no height: iOS Safari swaps width and height in portrait and a height constraint
      // can make it choose a cropped or tiny mode. `ideal` (not `exact`) never fails on a small camera.
      const stream = await media.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: this.#facing }, width: { ideal: this.#idealWidth } },
      });
      if (!this.#connected) {
        // The host left while the permission prompt was open: release at once.
        for (const track of stream.getTracks()) track.stop();
        this.#set('idle');
        return this.status;
      }
      this.stream = stream;
      this.#set('streaming');
    } catch (error) {
      const name = (error as DOMException)?.name;
      // NotAllowedError: the user or a policy said no. SecurityError: blocked by permissions policy.
      this.#set(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'unavailable');
    }
    return this.status;
  }

  /** Shows the stream in a video element; `playsinline` and `muted` keep iOS from going full screen. */
  async attach(video: HTMLVideoElement): Promise<void> {
    if (!this.stream) return;
    video.muted = true;
    video.playsInline = true;
    video.setAttribute('playsinline', '');
    if (video.srcObject !== this.stream) video.srcObject = this.stream;
    try {
      await video.play();
    } catch {
      // Autoplay refusals are harmless here: the video is muted and frames still decode.
    }
  }

  stop(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    if (this.status === 'streaming' || this.status === 'requesting') this.#set('idle');
  }

  /** Quality of the current frame, analysed on a downscaled copy. Null until the video has a frame. */
  analyze(video: HTMLVideoElement): FrameQuality | null {
    const { videoWidth: w, videoHeight: h } = video;
    if (!w || !h) return null;
    // The shared analysis size (the server downscales uploads to the same), so both measure alike.
    this.#analysisCanvas ??= document.createElement('canvas');
    const copy = drawAnalysisCopy(this.#analysisCanvas, video, w, h);
    if (!copy) return null;
    return analyzeFrame(copy.data, copy.width, copy.height, { width: w, height: h });
  }

  /** The current frame as an upload-ready JPEG. */
  capture(video: HTMLVideoElement): Promise<Blob> {
    return encodeJpeg(video, video.videoWidth, video.videoHeight);
  }
}
