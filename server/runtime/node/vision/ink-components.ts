import type { GrayscaleImage } from '../../../features/evidence/grayscale-image.ts';
import type { RawImage } from './decode-upright.ts';

/** A connected blob of dark pixels: one printed character, usually. Coordinates inclusive. */
export interface InkComponent {
  /** Label in {@link InkMap.labels} (1-based). */
  id: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Dark pixels in the blob. */
  area: number;
}

export interface InkMap {
  width: number;
  height: number;
  /** Per pixel: 0 for background, else the id of its component. */
  labels: Int32Array;
  components: InkComponent[];
}

/**
 * Luminance (BT.601) of an RGB image.
 *
 * @example
 * toGray(rgb).pixels[0] // 0–255
 */
export function toGray(image: RawImage): GrayscaleImage {
  if (image.channels === 1) return { pixels: image.data, width: image.width, height: image.height };
  const pixels = new Uint8Array(image.width * image.height);
  for (let i = 0, j = 0; i < pixels.length; i++, j += 3) {
    pixels[i] =
      (299 * (image.data[j] as number) +
        587 * (image.data[j + 1] as number) +
        114 * (image.data[j + 2] as number)) /
      1000;
  }
  return { pixels, width: image.width, height: image.height };
}

/**
 * Dark-on-light ink by Bradley's adaptive threshold: a pixel is ink when it is `contrast` darker than the
 * mean of the `window` × `window` square around it. Local, so a shadow across a card or a bright flash
 * on one side does not swallow the text the way one global threshold would.
 *
 * @example
 * const ink = adaptiveInk(gray, 41, 0.15); // 1 = ink, 0 = paper
 */
export function adaptiveInk(gray: GrayscaleImage, window: number, contrast = 0.15): Uint8Array {
  const { pixels, width, height } = gray;
  const stride = width + 1;
  const integral = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += pixels[y * width + x] as number;
      integral[(y + 1) * stride + x + 1] = (integral[y * stride + x + 1] as number) + row;
    }
  }
  const half = Math.max(1, Math.floor(window / 2));
  const ink = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - half);
    const bottom = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - half);
      const right = Math.min(width, x + half + 1);
      const sum =
        (integral[bottom * stride + right] as number) -
        (integral[top * stride + right] as number) -
        (integral[bottom * stride + left] as number) +
        (integral[top * stride + left] as number);
      const mean = sum / ((bottom - top) * (right - left));
      if ((pixels[y * width + x] as number) < mean * (1 - contrast)) ink[y * width + x] = 1;
    }
  }
  return ink;
}

/**
 * 8-connected components of a binary image (1 = ink).
 *
 * @example
 * const { components } = inkComponents(adaptiveInk(gray, 41), gray.width, gray.height);
 */
export function inkComponents(ink: Uint8Array, width: number, height: number): InkMap {
  const labels = new Int32Array(width * height);
  const components: InkComponent[] = [];
  const stack = new Int32Array(width * height);
  for (let start = 0; start < ink.length; start++) {
    if (ink[start] === 0 || labels[start] !== 0) continue;
    const id = components.length + 1;
    const component: InkComponent = { id, x0: width, y0: height, x1: 0, y1: 0, area: 0 };
    let top = 0;
    stack[top++] = start;
    labels[start] = id;
    while (top > 0) {
      const p = stack[--top] as number;
      const x = p % width;
      const y = (p - x) / width;
      component.area++;
      if (x < component.x0) component.x0 = x;
      if (x > component.x1) component.x1 = x;
      if (y < component.y0) component.y0 = y;
      if (y > component.y1) component.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (ink[q] === 1 && labels[q] === 0) {
            labels[q] = id;
            stack[top++] = q;
          }
        }
      }
    }
    components.push(component);
  }
  return { width, height, labels, components };
}

/** Width and height of a component's box. */
export function sizeOf(component: InkComponent): { width: number; height: number } {
  return { width: component.x1 - component.x0 + 1, height: component.y1 - component.y0 + 1 };
}
