import { css } from 'lit';

/**
 * What console screens add to the widget's shared styles: headings, tables, cards, badges, filter forms.
 * Colours come from the widget's `--idv-*` tokens (set on `<idv-console>`), so light, dark and the
 * tenant's brand colour apply everywhere. Logical properties only, so RTL follows `dir`.
 */
export const consoleStyles = css`
  :host {
    display: block;
  }
  h1 {
    font-size: 1.5rem;
    line-height: 1.3;
    margin: 0 0 1rem;
  }
  h1:focus {
    outline: none;
  }
  h1:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 4px;
  }
  h2 {
    font-size: 1.125rem;
    margin-block: 1.5rem 0.75rem;
  }
  h3 {
    font-size: 1rem;
    margin-block: 1rem 0.5rem;
  }
  a {
    color: var(--idv-color-primary-text);
  }
  a:focus-visible,
  textarea:focus-visible,
  summary:focus-visible,
  [tabindex]:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 2px;
  }
  code,
  .mono {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.875em;
    overflow-wrap: anywhere;
  }
  textarea {
    font: inherit;
    color: inherit;
    background: var(--idv-color-surface);
    inline-size: 100%;
    min-block-size: 5rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
  }
  button.small,
  .button.small {
    min-height: 36px;
    padding: 0.25rem 0.75rem;
    font-size: 0.9375rem;
  }
  button.danger {
    background: var(--idv-color-danger);
    border-color: var(--idv-color-danger);
    color: var(--idv-color-background);
  }
  .table-wrap {
    overflow-x: auto;
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
  }
  table {
    border-collapse: collapse;
    inline-size: 100%;
    font-size: 0.9375rem;
  }
  caption {
    text-align: start;
    font-weight: 600;
    padding: 0.5rem 0.75rem;
  }
  th,
  td {
    text-align: start;
    padding: 0.5rem 0.75rem;
    border-block-end: 1px solid color-mix(in srgb, var(--idv-color-border) 45%, transparent);
    vertical-align: top;
  }
  thead th {
    font-weight: 600;
    white-space: nowrap;
  }
  tbody tr:last-child > * {
    border-block-end: none;
  }
  /*
   * The checks table (ui/checks-view.ts). Its details are a two-column list inside a cell: the value
   * column keeps a readable width, or a long reason wraps a word per line and the row grows thousands of
   * pixels tall (issue 25). Below the width four columns need, each row stacks its cells.
   */
  .checks-table {
    container-type: inline-size;
  }
  .checks-table dl.facts {
    grid-template-columns: minmax(0, max-content) minmax(12rem, 1fr);
  }
  @container (max-width: 50rem) {
    .checks-table table,
    .checks-table tbody,
    .checks-table tr,
    .checks-table th,
    .checks-table td {
      display: block;
    }
    .checks-table thead {
      position: absolute;
      inline-size: 1px;
      block-size: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    .checks-table tbody tr {
      border-block-end: 1px solid var(--idv-color-border);
      padding-block: 0.25rem;
    }
    .checks-table tbody th,
    .checks-table tbody td {
      border: none;
      padding-block: 0.25rem;
    }
    .checks-table td[data-label]::before {
      content: attr(data-label);
      display: block;
      font-weight: 600;
      font-size: 0.8125rem;
    }
    .checks-table dl.facts {
      grid-template-columns: minmax(0, 1fr);
      gap: 0 1rem;
    }
    .checks-table dl.facts dd {
      margin-block-end: 0.375rem;
    }
  }
  .cards {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr));
    gap: 1rem;
  }
  .card {
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
    padding: 1rem;
    background: var(--idv-color-surface);
  }
  .card .value {
    font-size: 1.75rem;
    font-weight: 700;
    margin: 0.25rem 0;
  }
  .badge {
    display: inline-block;
    padding: 0.125rem 0.5rem;
    border-radius: 999px;
    border: 1px solid currentColor;
    font-size: 0.8125rem;
    font-weight: 600;
    white-space: nowrap;
  }
  .tone-good {
    color: var(--idv-color-success);
  }
  .tone-bad {
    color: var(--idv-color-danger);
  }
  .tone-wait {
    color: var(--idv-color-primary-text);
  }
  .tone-neutral {
    color: var(--idv-color-muted);
  }
  .sandbox-badge {
    background: var(--idv-color-banner);
    color: var(--idv-color-on-banner);
    border-color: transparent;
  }
  .heading-row {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.75rem;
    margin-block-end: 1rem;
  }
  .heading-row h1 {
    margin: 0;
  }
  fieldset {
    border: 1px solid var(--idv-color-border);
    border-radius: var(--idv-radius);
    padding: 0.75rem 1rem 1rem;
    margin: 0 0 1rem;
  }
  legend {
    font-weight: 600;
    padding-inline: 0.25rem;
  }
  .filters {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
    gap: 0.75rem 1rem;
    align-items: end;
  }
  .filters .field {
    margin: 0;
  }
  .filters .actions {
    margin: 0;
    grid-column: 1 / -1;
  }
  .form-grid {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr));
    gap: 0 1rem;
  }
  .checks-list {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
    gap: 0 1rem;
  }
  .pager {
    display: flex;
    gap: 0.75rem;
    justify-content: flex-end;
    margin-block: 1rem;
  }
  dl.facts {
    display: grid;
    grid-template-columns: minmax(8rem, max-content) 1fr;
    gap: 0.375rem 1rem;
    margin: 0;
  }
  dl.facts dt {
    font-weight: 600;
  }
  dl.facts dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .notice {
    border-inline-start: 4px solid var(--idv-color-primary);
    padding: 0.5rem 0.75rem;
    margin-block: 0 1rem;
    background: color-mix(in srgb, var(--idv-color-primary) 8%, var(--idv-color-background));
  }
  .notice.bad {
    border-color: var(--idv-color-danger);
  }
  .notice p:last-child {
    margin-block-end: 0;
  }
  ul.plain {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .row-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .confirm {
    border: 2px solid var(--idv-color-danger);
    border-radius: var(--idv-radius);
    padding: 0.75rem;
    margin-block: 0.5rem;
  }
  .confirm .actions {
    margin-block-start: 0.5rem;
  }
`;
