import type { TenantBranding } from '../api/verify-api.ts';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function channels(hex: string): [number, number, number] {
  const full = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c) : hex;
  const n = Number.parseInt(full.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2.x relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rgb`/`#rrggbb` colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * CSS declarations for the tenant's primary colour, or '' when there is none or it is not a plain hex
 * colour (anything else could smuggle CSS in). Text on the colour is black or white, whichever contrasts
 * more; the colour is used for text on the light background only when it passes AA (4.5:1), so a pale
 * brand colour cannot make links unreadable.
 *
 * @example
 *   brandingDeclarations({ primary_color: '#0a7f3f' })
 *   // → '--idv-brand-primary:#0a7f3f;--idv-brand-on-primary:#ffffff;--idv-brand-primary-text:#0a7f3f;'
 */
export function brandingDeclarations(branding: TenantBranding | undefined): string {
  const primary = branding?.primary_color?.trim();
  if (!primary || !HEX.test(primary)) return '';
  const onPrimary =
    contrastRatio(primary, '#ffffff') >= contrastRatio(primary, '#000000') ? '#ffffff' : '#000000';
  let css = `--idv-brand-primary:${primary};--idv-brand-on-primary:${onPrimary};`;
  if (contrastRatio(primary, '#ffffff') >= 4.5) css += `--idv-brand-primary-text:${primary};`;
  return css;
}
