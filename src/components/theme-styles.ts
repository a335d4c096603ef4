import { css } from 'lit';

/** The dark palette, for `theme="dark"` and for `theme="auto"` when the device prefers dark. */
const darkPalette = css`
  --idv-color-primary: var(--idv-brand-primary-dark, #8fb0ff);
  --idv-color-on-primary: var(--idv-brand-on-primary-dark, #0b1530);
  --idv-color-primary-text: var(--idv-brand-primary-dark, #8fb0ff);
  --idv-color-background: #121418;
  --idv-color-surface: #1c1f25;
  --idv-color-text: #eceef2;
  --idv-color-muted: #b4b9c4;
  --idv-color-border: #7d8391;
  --idv-color-danger: #ffb4ab;
  --idv-color-success: #6fdba0;
  --idv-color-banner: #4a3b00;
  --idv-color-on-banner: #fff4cc;
  color-scheme: dark;
`;

/**
 * The `--idv-*` custom properties with their defaults, on `<id-verify>`'s `:host`. A host page overrides
 * any of them with an ordinary rule (`id-verify { --idv-color-primary: #0a7; }`), which wins over `:host`.
 * Tenant branding from the session sits between the two (src/controllers/branding-controller.ts).
 *
 * The public ones are documented with `@cssproperty` on `IdVerifyElement` (src/id-verify-element.ts),
 * where the custom-elements manifest picks them up (it reads custom element classes only), and in
 * docs/embedding.md; a property added here and meant for tenants goes there too.
 */
export const themeStyles = css`
  :host {
    --idv-color-primary: var(--idv-brand-primary, #1f4fd1);
    --idv-color-on-primary: var(--idv-brand-on-primary, #ffffff);
    --idv-color-primary-text: var(--idv-brand-primary-text, #1f4fd1);
    --idv-color-background: #ffffff;
    --idv-color-surface: #ffffff;
    --idv-color-text: #16181d;
    --idv-color-muted: #4f5562;
    --idv-color-border: #8a909c;
    --idv-color-danger: #b3261e;
    --idv-color-success: #16794a;
    --idv-color-banner: #fff4cc;
    --idv-color-on-banner: #4a3b00;
    --idv-font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif;
    --idv-radius: 0.5rem;
    --idv-focus-ring: 3px solid var(--idv-color-primary);
    display: block;
    color-scheme: light;
    font-family: var(--idv-font-family);
    color: var(--idv-color-text);
    background: var(--idv-color-background);
  }
  :host([theme='dark']) {
    ${darkPalette}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${darkPalette}
    }
  }
`;
