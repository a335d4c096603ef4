import { css } from 'lit';

/** The security page's own styles: its sections, the QR code, the recovery codes, the code input. */
export const securityStyles = css`
  section {
    margin-block-end: 2rem;
  }
  .qr {
    display: block;
    inline-size: min(14rem, 100%);
    aspect-ratio: 1;
    background: #fff;
    color: #000;
    padding: 0.75rem;
    border-radius: var(--idv-radius);
    margin-block: 0.5rem 1rem;
  }
  ol.codes {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 1.125rem;
    columns: 2;
    padding-inline-start: 2rem;
  }
  .code-input {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    letter-spacing: 0.2em;
    max-inline-size: 12rem;
  }
`;
