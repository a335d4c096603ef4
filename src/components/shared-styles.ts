import { css } from 'lit';

/**
 * Styles every screen adopts. Colours, radius and font come from `--idv-*` custom properties, which
 * inherit through the shadow roots from `<id-verify>`'s `:host` (where the defaults live). Logical
 * properties (`inline`/`block`) make RTL work from the `dir` attribute alone.
 */
export const sharedStyles = css`
  :host {
    display: block;
  }
  * {
    box-sizing: border-box;
  }
  h2 {
    font-size: 1.375rem;
    line-height: 1.3;
    margin: 0 0 0.5rem;
    /* German and Finnish compounds are longer than a 320 px phone is wide: hyphenate, else break. */
    hyphens: auto;
    overflow-wrap: break-word;
  }
  h2:focus {
    outline: none;
  }
  h2:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 4px;
  }
  p {
    margin: 0 0 1rem;
    line-height: 1.5;
  }
  .muted {
    color: var(--idv-color-muted);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    margin-block-start: 1.5rem;
  }
  button,
  .button {
    font: inherit;
    font-weight: 600;
    min-height: 44px;
    min-width: 44px;
    padding: 0.625rem 1.25rem;
    border-radius: var(--idv-radius);
    border: 2px solid var(--idv-color-primary);
    background: var(--idv-color-primary);
    color: var(--idv-color-on-primary);
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    text-decoration: none;
  }
  button.secondary,
  .button.secondary {
    background: transparent;
    color: var(--idv-color-primary-text);
  }
  button.link {
    background: transparent;
    border-color: transparent;
    color: var(--idv-color-primary-text);
    text-decoration: underline;
    padding-inline: 0.25rem;
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  .button:focus-within {
    outline: var(--idv-focus-ring);
    outline-offset: 2px;
  }
  label {
    display: block;
    font-weight: 600;
    margin-block-end: 0.25rem;
  }
  input,
  select {
    font: inherit;
    color: inherit;
    background: var(--idv-color-surface);
    width: 100%;
    min-height: 44px;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
  }
  input[type='checkbox'],
  input[type='radio'] {
    inline-size: 1.5rem;
    block-size: 1.5rem;
    min-height: 0;
    flex: none;
    margin: 0.65rem 0;
    accent-color: var(--idv-color-primary);
  }
  .check {
    display: flex;
    gap: 0.75rem;
    align-items: flex-start;
  }
  .check label {
    font-weight: 400;
    padding-block: 0.5rem;
    min-height: 44px;
  }
  .field {
    margin-block-end: 1rem;
  }
  .error {
    color: var(--idv-color-danger);
    font-weight: 600;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  .spinner {
    inline-size: 2rem;
    block-size: 2rem;
    border: 3px solid var(--idv-color-border);
    border-block-start-color: var(--idv-color-primary);
    border-radius: 50%;
    animation: idv-spin 0.9s linear infinite;
    margin-block: 1rem;
  }
  @keyframes idv-spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0.01ms !important;
    }
  }
`;
