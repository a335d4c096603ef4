import { css } from 'lit';

/** `<idv-copy-field>`: the value and its Copy button on one row, room for the announced outcome. */
export const copyFieldStyles = css`
  .row {
    display: flex;
    gap: 0.5rem;
    align-items: stretch;
  }
  input {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    flex: 1;
    min-inline-size: 0;
  }
  .status {
    min-block-size: 1.5rem;
    margin: 0.25rem 0 0;
    font-size: 0.875rem;
  }
`;
