import { css } from 'lit';

/**
 * The shell's layout (`<idv-console>`): the skip link, the header with its pickers and the sandbox
 * banner, the navigation beside the page.
 */
export const shellStyles = css`
  :host {
    min-block-size: 100vh;
  }
  a {
    color: var(--idv-color-primary-text);
  }
  a:focus-visible,
  main:focus-visible {
    outline: var(--idv-focus-ring);
    outline-offset: 2px;
  }
  main:focus {
    outline: none;
  }
  .skip {
    position: absolute;
    inset-inline-start: 0.5rem;
    inset-block-start: -10rem;
    z-index: 10;
    background: var(--idv-color-background);
    padding: 0.5rem 1rem;
    border-radius: var(--idv-radius);
  }
  .skip:focus {
    inset-block-start: 0.5rem;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem 1.5rem;
    padding: 0.75rem 1.25rem;
    border-block-end: 1px solid var(--idv-color-border);
  }
  .brand {
    font-weight: 700;
    margin: 0;
    margin-inline-end: auto;
  }
  .brand .tenant {
    font-weight: 400;
    color: var(--idv-color-muted);
  }
  .controls {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.75rem;
  }
  .controls label {
    font-size: 0.8125rem;
    margin: 0;
  }
  .controls select {
    inline-size: auto;
    min-height: 40px;
    padding-block: 0.25rem;
  }
  /* Room for the waiting counts ("Production · 12 waiting") before they are read: growing when
     they arrive, the picker wrapped the header and pushed the whole page down (layout shift). */
  .controls #environment {
    min-inline-size: 15rem;
  }
  .user {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    font-size: 0.875rem;
  }
  .banner {
    flex-basis: 100%;
    background: var(--idv-color-banner);
    color: var(--idv-color-on-banner);
    margin: 0 -1.25rem -0.75rem;
    padding: 0.5rem 1.25rem;
    font-weight: 600;
  }
  .layout {
    display: flex;
    flex-wrap: wrap;
    align-items: flex-start;
  }
  nav {
    flex: 0 0 13rem;
    padding: 1rem 0.75rem;
  }
  nav ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  nav a {
    display: block;
    padding: 0.5rem 0.75rem;
    border-radius: var(--idv-radius);
    text-decoration: none;
    min-height: 44px;
    line-height: 1.75;
  }
  nav a[aria-current='page'] {
    background: var(--idv-color-primary);
    color: var(--idv-color-on-primary);
    font-weight: 600;
  }
  main {
    flex: 1 1 30rem;
    min-inline-size: 0;
    padding: 1.25rem;
  }
  button.small {
    min-height: 40px;
    padding: 0.25rem 0.75rem;
  }
  .public main {
    max-inline-size: 28rem;
    margin-inline: auto;
    flex: none;
    inline-size: 100%;
  }
  @media (max-width: 48rem) {
    nav {
      flex-basis: 100%;
      padding-block: 0.5rem 0;
    }
    nav ul {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem;
    }
  }
`;
