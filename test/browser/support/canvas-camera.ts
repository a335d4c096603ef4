/**
 * A camera for tests that must not depend on each engine's own fake camera (Chromium's is a video file;
 * Firefox's and WebKit's show an all but still picture): `getUserMedia` answers with a canvas's stream,
 * redrawn at 10 fps by `paint` with the scene's horizontal offset, which the test moves with `moveTo`
 * (or, `drifting`, which moves by itself like a hand-held phone). `restore()` puts the real one back.
 */
export interface CanvasCamera {
  moveTo(offset: number): void;
  restore(): void;
}

export function canvasCamera(options: { drifting?: boolean } = {}): CanvasCamera {
  const media = navigator.mediaDevices;
  const original = media.getUserMedia;
  const scene = document.createElement('canvas');
  scene.width = 640;
  scene.height = 480;
  let offset = 0;
  const started = performance.now();
  const paint = () => {
    const ctx = scene.getContext('2d');
    if (!ctx) return;
    // A face-sized dark oval and a block below it on a light wall: enough layout for a perceptual hash.
    // Drifting, the scene sweeps across in 2.4 s and steps down 40 px at each sweep, over a 9.6 s cycle:
    // two frames taken seconds apart (the liveness timer's 3.7 s) never show the same picture.
    const elapsed = performance.now() - started;
    const shift = options.drifting ? (elapsed / 8) % 300 : offset;
    const drop = options.drifting ? (Math.floor(elapsed / 2400) % 4) * 40 : 0;
    ctx.fillStyle = '#d8cfc4';
    ctx.fillRect(0, 0, 640, 480);
    ctx.fillStyle = '#3a2f28';
    ctx.beginPath();
    ctx.ellipse(200 + shift, 180 + drop, 110, 150, 0, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = '#8a5a44';
    ctx.fillRect(60 + shift / 2, 360 - drop, 200, 90);
  };
  paint();
  const painter = setInterval(paint, 100);
  media.getUserMedia = () => Promise.resolve(scene.captureStream(10));
  return {
    moveTo(next: number) {
      offset = next;
      paint();
    },
    restore() {
      clearInterval(painter);
      media.getUserMedia = original;
    },
  };
}
