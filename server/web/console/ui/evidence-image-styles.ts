import { css } from 'lit';

/** `<idv-evidence-image>`: the scrollable frame, the image in it, and the zoom and rotate tools. */
export const evidenceImageStyles = css`
  figure {
    margin: 0;
  }
  figcaption {
    font-weight: 600;
    margin-block-end: 0.25rem;
  }
  .frame {
    overflow: auto;
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
    /* A screen that shows several side by side may make them shorter. */
    block-size: var(--idv-evidence-height, 16rem);
    display: grid;
    /* safe: a zoomed image overflows to the end side, where it can be scrolled to. */
    place-items: safe center;
    background: var(--idv-color-surface);
  }
  .frame:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 2px;
  }
  img {
    max-inline-size: 100%;
    max-block-size: 100%;
    transition: transform 0.15s ease-out;
  }
  @media (prefers-reduced-motion: reduce) {
    img {
      transition: none;
    }
  }
  .tools {
    display: flex;
    flex-wrap: wrap;
    gap: 0.375rem;
    margin-block-start: 0.5rem;
  }
  .tools button {
    min-height: 36px;
    padding: 0.25rem 0.625rem;
  }
  .error {
    padding: 1rem;
  }
`;
