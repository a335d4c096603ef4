/**
 * In-place iterative radix-2 fast Fourier transform of `n` complex values (a power of two) held at
 * `re[offset + k·stride]`, `im[offset + k·stride]`. `inverse` transforms back and divides by `n`.
 */
function fft1d(
  re: Float64Array,
  im: Float64Array,
  n: number,
  offset: number,
  stride: number,
  inverse: boolean,
  scratchRe: Float64Array,
  scratchIm: Float64Array,
  cosines: Float64Array,
  sines: Float64Array,
): void {
  for (let k = 0; k < n; k++) {
    scratchRe[k] = re[offset + k * stride] as number;
    scratchIm[k] = im[offset + k * stride] as number;
  }
  // Bit-reversed order.
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = scratchRe[i] as number;
      scratchRe[i] = scratchRe[j] as number;
      scratchRe[j] = tr;
      const ti = scratchIm[i] as number;
      scratchIm[i] = scratchIm[j] as number;
      scratchIm[j] = ti;
    }
  }
  // The twiddle factors e^(∓2πik/n) come from tables of n/2 entries: the k-th of a block of `size` is
  // entry k·(n/size).
  const sign = inverse ? 1 : -1;
  for (let size = 2; size <= n; size *= 2) {
    const half = size / 2;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const cr = cosines[k * step] as number;
        const ci = sign * (sines[k * step] as number);
        const a = start + k;
        const b = a + half;
        const br = scratchRe[b] as number;
        const bi = scratchIm[b] as number;
        const tr = br * cr - bi * ci;
        const ti = br * ci + bi * cr;
        scratchRe[b] = (scratchRe[a] as number) - tr;
        scratchIm[b] = (scratchIm[a] as number) - ti;
        scratchRe[a] = (scratchRe[a] as number) + tr;
        scratchIm[a] = (scratchIm[a] as number) + ti;
      }
    }
  }
  const scale = inverse ? 1 / n : 1;
  for (let k = 0; k < n; k++) {
    re[offset + k * stride] = (scratchRe[k] as number) * scale;
    im[offset + k * stride] = (scratchIm[k] as number) * scale;
  }
}

/**
 * In-place two-dimensional FFT of a `width` × `height` complex image stored row by row (both powers of
 * two): every row, then every column. `inverse` transforms back, divided by `width · height`.
 *
 * @example
 * fft2d(re, im, 256, 256, false) // re, im now hold the spectrum
 */
export function fft2d(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  inverse: boolean,
): void {
  if ((width & (width - 1)) !== 0 || (height & (height - 1)) !== 0)
    throw new RangeError(`fft2d needs powers of two, got ${width} × ${height}`);
  const scratchRe = new Float64Array(Math.max(width, height));
  const scratchIm = new Float64Array(Math.max(width, height));
  const rows = twiddles(width);
  const columns = twiddles(height);
  for (let y = 0; y < height; y++)
    fft1d(re, im, width, y * width, 1, inverse, scratchRe, scratchIm, rows.cosines, rows.sines);
  for (let x = 0; x < width; x++)
    fft1d(re, im, height, x, width, inverse, scratchRe, scratchIm, columns.cosines, columns.sines);
}

/** cos(2πk/n) and sin(2πk/n) for k below n/2. */
function twiddles(n: number): { cosines: Float64Array; sines: Float64Array } {
  const half = Math.max(1, n / 2);
  const cosines = new Float64Array(half);
  const sines = new Float64Array(half);
  for (let k = 0; k < half; k++) {
    cosines[k] = Math.cos((2 * Math.PI * k) / n);
    sines[k] = Math.sin((2 * Math.PI * k) / n);
  }
  return { cosines, sines };
}
