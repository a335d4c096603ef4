import type { CameraIssue, CaptureMode } from '../flow/flow-types.ts';

/** Internal: the end-user accepted a photo (camera frame or chosen file), ready to upload. */
export class CapturedEvent extends Event {
  readonly blob: Blob;
  constructor(blob: Blob) {
    super('idv-captured', { bubbles: true });
    this.blob = blob;
  }
}

/** Internal: the camera cannot be used; the flow switches to upload. */
export class CameraFailedEvent extends Event {
  readonly reason: CameraIssue;
  constructor(reason: CameraIssue) {
    super('idv-camera-failed', { bubbles: true });
    this.reason = reason;
  }
}

/** Internal: the end-user switched between camera and file upload. */
export class CaptureModeEvent extends Event {
  readonly mode: CaptureMode;
  constructor(mode: CaptureMode) {
    super('idv-capture-mode', { bubbles: true });
    this.mode = mode;
  }
}

declare global {
  interface HTMLElementEventMap {
    'idv-captured': CapturedEvent;
    'idv-camera-failed': CameraFailedEvent;
    'idv-capture-mode': CaptureModeEvent;
  }
}
