import { css } from 'lit';

/** The dashboard's own styles: the daily chart (bars, axis, legend) and its figures. */
export const dashboardStyles = css`
  figure {
    margin: 1.5rem 0 0;
  }
  figcaption {
    font-weight: 600;
    font-size: 1.125rem;
    margin-block-end: 0.5rem;
  }
  svg {
    inline-size: 100%;
    block-size: auto;
    max-block-size: 18rem;
  }
  .grid {
    stroke: var(--idv-color-border);
    stroke-width: 1;
    stroke-dasharray: 2 3;
  }
  .axis {
    fill: var(--idv-color-muted);
    font-size: 11px;
  }
  .bar.good {
    fill: var(--idv-color-success);
  }
  .bar.bad {
    fill: var(--idv-color-danger);
  }
  .bar.wait {
    fill: var(--idv-color-primary);
  }
  .bar.neutral {
    fill: var(--idv-color-muted);
  }
  .legend {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1.25rem;
    margin-block-end: 0.75rem;
  }
  .legend li {
    display: flex;
    align-items: center;
    gap: 0.375rem;
  }
  .swatch {
    inline-size: 0.875rem;
    block-size: 0.875rem;
  }
  details summary {
    cursor: pointer;
    min-height: 44px;
    display: flex;
    align-items: center;
  }
`;
