/**
 * Turns a QR module matrix into one SVG path (a unit square per dark module), so the code renders as a
 * plain `<path d>`: no inline style, no data URL, nothing a strict CSP would block.
 *
 * @example
 *   qrPath([[true, false], [false, true]]) // → 'M0 0h1v1h-1zM1 1h1v1h-1z'
 */
export function qrPath(modules: readonly (readonly boolean[])[]): string {
  let d = '';
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return d;
}
