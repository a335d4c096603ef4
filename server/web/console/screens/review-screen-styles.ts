import { css } from 'lit';

/**
 * The review page's own styles: what to compare beside the decision, the queue, the evidence, the
 * keyboard shortcuts and the loading skeleton.
 */
export const reviewStyles = css`
  /* The reviewer's first screen: what to compare on the left, the decision on the right. */
  .review-grid {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(16rem, 22rem);
    gap: 1.25rem;
    align-items: start;
  }
  /* The box the screen gets, not the window: the console's navigation takes its share first. */
  .review {
    container-type: inline-size;
  }
  @container (max-width: 46rem) {
    .review-grid {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  .decision-panel {
    position: sticky;
    inset-block-start: 0.5rem;
  }
  .decision-panel .actions {
    margin-block: 0 1rem;
  }
  .queue-filters fieldset {
    margin-block-end: 0.5rem;
  }
  .queue-filters .filters .actions {
    grid-column: auto;
  }
  .decision-panel .assign {
    margin-block-start: 1rem;
  }
  .queue-list .waiting,
  .queue-list button > span {
    margin-inline-start: 0.5rem;
  }
  .queue-list button {
    flex-wrap: wrap;
  }
  .decision-panel .checks-list {
    grid-template-columns: minmax(0, 1fr);
  }
  .panel h3 {
    margin-block-start: 0;
  }
  .panel + .panel {
    margin-block-start: 1.25rem;
  }
  .side-by-side {
    --idv-evidence-height: 12rem;
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
    gap: 1rem;
    margin-block-end: 0.75rem;
  }
  .side-by-side .muted,
  .images .muted {
    margin-block: 0.25rem 0;
  }
  tr.differs > * {
    background: color-mix(in srgb, var(--idv-color-danger) 10%, var(--idv-color-background));
  }
  #review-reasons h3 {
    margin-block: 0 0.25rem;
  }
  #review-reasons ul {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1.25rem;
  }
  #review-reasons p {
    margin-block: 0.25rem 0;
  }
  #current {
    margin-block-start: 0.75rem;
  }
  .images {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
    gap: 1rem;
  }
  .queue-nav {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem;
  }
  h2:focus {
    outline: none;
  }
  h2:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 4px;
  }
  kbd {
    font-family: ui-monospace, Menlo, Consolas, monospace;
    border: 1px solid var(--idv-color-border);
    border-block-end-width: 2px;
    border-radius: 0.25rem;
    padding: 0 0.375rem;
  }
  .shortcuts dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 0.75rem;
    margin: 0;
  }
  .shortcuts dd {
    margin: 0;
  }
  .queue-list button {
    inline-size: 100%;
    justify-content: flex-start;
    text-align: start;
    margin-block-end: 0.375rem;
  }
  .queue-list button[aria-current='true'] {
    background: var(--idv-color-primary);
    color: var(--idv-color-on-primary);
  }
  .queue-count {
    min-inline-size: 7rem;
  }
  /* A touch target, not a line of text (WCAG 2.5.8: at least 24 × 24 px). Not taller: the comparison
     and the decision must end within 1,600 px at 1280 × 800, in Firefox's line heights too. */
  .queue-list summary {
    min-block-size: 2rem;
    padding-block: 0.375rem;
    box-sizing: border-box;
  }
  /*
   * While the queue or a session loads: blocks where its parts will be, at least a screen tall, so
   * what follows them (the shortcuts) starts below the fold and nothing in view moves when the data
   * arrives (cumulative layout shift). The blocks are replaced, not resized, which does not count.
   */
  .skeleton {
    min-block-size: 100vh;
  }
  .skeleton p {
    margin-block: 0 0.75rem;
  }
  .skeleton .block {
    background: var(--idv-color-surface);
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
  }
  .skeleton .reasons {
    block-size: 5rem;
    margin-block-end: 1rem;
  }
  .skeleton .review-grid .block {
    min-block-size: 36rem;
  }
  /* The checks and the evidence list, a frame after the rest: keeps what follows (the shortcuts) below
     the fold until they arrive, as the skeleton does. */
  .below-fold-pending {
    min-block-size: 100vh;
  }
`;
