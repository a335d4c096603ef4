export interface EncodeOptions {
  /** Upload budget; the server accepts 10 MB but phones on mobile data should not send that. */
  maxBytes: number;
  /** Never scale the long side above this (more pixels stop helping OCR and cost bytes). */
  maxLongSide: number;
  /** Never shrink the long side below this to meet `maxBytes` (MRZ and fine print stay legible). */
  minLongSide: number;
}

export const DEFAULT_ENCODE: EncodeOptions = { maxBytes: 600_000, maxLongSide: 2048, minLongSide: 1600 };

const QUALITIES = [0.92, 0.85, 0.78, 0.7, 0.62];

function toBlob(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('JPEG encoding failed'))),
      'image/jpeg',
      quality,
    );
  });
}

/**
 * Encodes a video frame or image as JPEG, lowering quality (then size, not below `minLongSide` or the
 * source's own size) until it fits `maxBytes`.
 *
 * @example
 *   const blob = await encodeJpeg(video, video.videoWidth, video.videoHeight);
 */
export async function encodeJpeg(
  source: CanvasImageSource,
  sourceWidth: number,
  sourceHeight: number,
  options: EncodeOptions = DEFAULT_ENCODE,
): Promise<Blob> {
  const long = Math.max(sourceWidth, sourceHeight);
  let scale = Math.min(1, options.maxLongSide / long);
  const floor = Math.min(1, options.minLongSide / long);
  const canvas = document.createElement('canvas');
  let blob: Blob | null = null;
  for (;;) {
    canvas.width = Math.round(sourceWidth * scale);
    canvas.height = Math.round(sourceHeight * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('2D canvas unavailable');
    ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
    for (const quality of QUALITIES) {
      blob = await toBlob(canvas, quality);
      if (blob.size <= options.maxBytes) return blob;
    }
    if (scale <= floor) return blob as Blob;
    scale = Math.max(floor, scale * 0.85);
  }
}

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Checks a chosen file and re-encodes it when it is over the upload budget. Returns null for a file
 * the server would refuse (type or size), so the UI can say so before uploading.
 */
export async function prepareImageFile(
  file: Blob,
  options: EncodeOptions = DEFAULT_ENCODE,
): Promise<Blob | null> {
  if (!ACCEPTED.includes(file.type) || file.size > MAX_FILE_BYTES) return null;
  if (file.size <= options.maxBytes) return file;
  try {
    // createImageBitmap applies EXIF orientation ('from-image' is the default), so portrait phone
    // photos stay upright after re-encoding.
    const bitmap = await createImageBitmap(file);
    const blob = await encodeJpeg(bitmap, bitmap.width, bitmap.height, options);
    bitmap.close();
    return blob;
  } catch {
    return file;
  }
}
