import sharp from 'sharp';

type Pipeline = ReturnType<typeof sharp>;

/** Deterministic PRNG (mulberry32) so every run draws the same "document". */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Canvas {
  pixels: Uint8Array;
  width: number;
  height: number;
}

function fillRect(canvas: Canvas, x0: number, y0: number, w: number, h: number, rgb: readonly number[]) {
  for (let y = Math.max(0, y0); y < Math.min(canvas.height, y0 + h); y++) {
    for (let x = Math.max(0, x0); x < Math.min(canvas.width, x0 + w); x++) {
      const i = (y * canvas.width + x) * 3;
      canvas.pixels[i] = rgb[0]!;
      canvas.pixels[i + 1] = rgb[1]!;
      canvas.pixels[i + 2] = rgb[2]!;
    }
  }
}

/**
 * Raw RGB pixels of a photographed ID card: a light card on a darker table, a portrait box, lines of
 * word-like dark stripes, an MRZ-like band of small blocks, and sensor-like noise. Scales with the size.
 */
function drawDocument(width: number, height: number, seed: number, glareShare: number): Canvas {
  const random = seededRandom(seed);
  const canvas: Canvas = { pixels: new Uint8Array(width * height * 3), width, height };
  const unit = width / 1600;
  const px = (value: number) => Math.round(value * unit);
  fillRect(canvas, 0, 0, width, height, [78, 72, 66]);
  const card = { x: px(180), y: px(140), w: px(1240), h: px(900) };
  fillRect(canvas, card.x, card.y, card.w, card.h, [232, 226, 214]);
  fillRect(canvas, card.x + px(60), card.y + px(120), px(300), px(400), [128, 112, 100]);
  fillRect(canvas, card.x + px(130), card.y + px(180), px(160), px(200), [186, 150, 130]);
  fillRect(canvas, card.x + px(60), card.y + px(30), px(700), px(50), [40, 60, 120]);
  for (let line = 0; line < 9; line++) {
    let x = card.x + px(420);
    const y = card.y + px(130 + line * 46);
    while (x < card.x + card.w - px(80)) {
      const word = px(20 + random() * 90);
      fillRect(canvas, x, y, word, px(16), [30, 30, 36]);
      x += word + px(14 + random() * 10);
    }
  }
  for (let row = 0; row < 2; row++) {
    for (let char = 0; char < 44; char++) {
      if (random() < 0.25) continue;
      fillRect(
        canvas,
        card.x + px(60 + char * 25),
        card.y + px(700 + row * 60),
        px(16),
        px(30),
        [25, 25, 25],
      );
    }
  }
  for (let i = 0; i < canvas.pixels.length; i++) {
    const noise = (random() + random() + random() - 1.5) * 10;
    canvas.pixels[i] = Math.max(0, Math.min(255, canvas.pixels[i]! + noise));
  }
  // A specular hotspot saturates the sensor: pure white, no noise, a disk of the given frame share.
  const radius = Math.sqrt((glareShare * width * height) / Math.PI);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((x - width * 0.6) ** 2 + (y - height * 0.45) ** 2 <= radius ** 2)
        fillRect(canvas, x, y, 1, 1, [255, 255, 255]);
    }
  }
  return canvas;
}

export interface DocumentOptions {
  width?: number;
  height?: number;
  /** Varies the word lengths and MRZ blocks, for a second, different document. */
  seed?: number;
  /** Share of the frame (0–1) covered by a blown-out glare spot; 0 by default. */
  glareShare?: number;
}

/** A sharp, well-lit 1600×1200 (by default) JPEG of a synthetic ID card. */
export async function documentJpeg(options: DocumentOptions = {}) {
  const { width = 1600, height = 1200, seed = 1, glareShare = 0 } = options;
  const { pixels } = drawDocument(width, height, seed, glareShare);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Re-encodes `image` after a sharp pipeline step, e.g. `(img) => img.blur(8)`. */
export async function transformJpeg(image: Uint8Array, step: (image: Pipeline) => Pipeline) {
  return step(sharp(image)).jpeg({ quality: 90 }).toBuffer();
}

/**
 * A 640×480 webcam-like JPEG of a head against a wall, the head moved by (`dx`, `dy`) as a share of the
 * frame: the liveness actions (turn, look up) move the head, which is what the perceptual hash sees.
 */
export async function faceFrameJpeg(dx: number, dy: number, seed = 7) {
  const width = 640;
  const height = 480;
  const random = seededRandom(seed);
  const canvas: Canvas = { pixels: new Uint8Array(width * height * 3), width, height };
  fillRect(canvas, 0, 0, width, height, [170, 180, 190]);
  fillRect(canvas, 0, 0, Math.round(width * 0.2), height, [120, 90, 70]);
  const cx = width * (0.5 + dx);
  const cy = height * (0.45 + dy);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const head = ((x - cx) / 110) ** 2 + ((y - cy) / 145) ** 2 <= 1;
      const body = y > cy + 150 && Math.abs(x - cx) < 190;
      if (head) fillRect(canvas, x, y, 1, 1, [214, 170, 140]);
      else if (body) fillRect(canvas, x, y, 1, 1, [40, 60, 110]);
    }
  }
  fillRect(canvas, Math.round(cx - 55), Math.round(cy - 30), 30, 14, [40, 30, 30]);
  fillRect(canvas, Math.round(cx + 25), Math.round(cy - 30), 30, 14, [40, 30, 30]);
  fillRect(canvas, Math.round(cx - 35), Math.round(cy + 60), 70, 12, [150, 60, 60]);
  for (let i = 0; i < canvas.pixels.length; i++) {
    const noise = (random() + random() - 1) * 8;
    canvas.pixels[i] = Math.max(0, Math.min(255, canvas.pixels[i]! + noise));
  }
  return sharp(canvas.pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * A frame with nothing in it: one flat grey level plus sensor-like noise (amplitude per channel), e.g.
 * a wall (170), a covered lens (6) or a blank sheet (235).
 */
export async function blankJpeg(options: { level: number; noise?: number; width?: number; height?: number }) {
  const { level, noise = 8, width = 1600, height = 1200 } = options;
  const random = seededRandom(level * 31 + noise);
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] = Math.max(0, Math.min(255, level + (random() + random() + random() - 1.5) * noise));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
