/** Least-squares fit of `ys` as a polynomial of `xs` of the given degree (Gaussian elimination). */
export function polyfit(xs: readonly number[], ys: readonly number[], degree: number): number[] | null {
  const n = degree + 1;
  if (xs.length < n) return null;
  const m: number[][] = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  for (let i = 0; i < xs.length; i++) {
    const powers = [1];
    for (let d = 1; d <= 2 * degree; d++) powers.push((powers[d - 1] as number) * (xs[i] as number));
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++)
        (m[r] as number[])[c] = ((m[r] as number[])[c] as number) + (powers[r + c] as number);
      (m[r] as number[])[n] = ((m[r] as number[])[n] as number) + (powers[r] as number) * (ys[i] as number);
    }
  }
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs((m[r] as number[])[col] as number) > Math.abs((m[pivot] as number[])[col] as number))
        pivot = r;
    }
    if (Math.abs((m[pivot] as number[])[col] as number) < 1e-9) return null;
    [m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
    const row = m[col] as number[];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const other = m[r] as number[];
      const factor = (other[col] as number) / (row[col] as number);
      for (let c = col; c <= n; c++) other[c] = (other[c] as number) - factor * (row[c] as number);
    }
  }
  return m.map((row, r) => (row[n] as number) / (row[r] as number));
}
