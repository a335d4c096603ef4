/**
 * Where the console reads and changes its URL. The browser's history in the app; tests pass a
 * {@link MemoryHistory} so they never move the test page itself.
 */
export interface ConsoleHistory {
  /** Path, query and fragment, e.g. `/console/sessions?status=approved`. */
  readonly href: string;
  push(href: string): void;
  replace(href: string): void;
  /** Calls back when the user goes back or forward; returns the unsubscribe. */
  listen(onChange: () => void): () => void;
}

/** The browser's history (pushState and popstate). */
export const browserHistory: ConsoleHistory = {
  get href() {
    return `${location.pathname}${location.search}${location.hash}`;
  },
  push(href) {
    history.pushState(null, '', href);
  },
  replace(href) {
    history.replaceState(null, '', href);
  },
  listen(onChange) {
    addEventListener('popstate', onChange);
    return () => removeEventListener('popstate', onChange);
  },
};

/**
 * An in-memory history with back support.
 *
 * @example
 *   const memory = new MemoryHistory('/console/login');
 *   memory.push('/console/sessions'); memory.back(); memory.href; // → '/console/login'
 */
export class MemoryHistory implements ConsoleHistory {
  readonly #entries: string[];
  #index = 0;
  readonly #listeners = new Set<() => void>();

  constructor(initial: string) {
    this.#entries = [initial];
  }

  get href(): string {
    return this.#entries[this.#index] ?? '/console';
  }

  push(href: string): void {
    this.#entries.splice(this.#index + 1, Infinity, href);
    this.#index = this.#entries.length - 1;
  }

  replace(href: string): void {
    this.#entries[this.#index] = href;
  }

  back(): void {
    if (this.#index === 0) return;
    this.#index -= 1;
    for (const listener of this.#listeners) listener();
  }

  listen(onChange: () => void): () => void {
    this.#listeners.add(onChange);
    return () => this.#listeners.delete(onChange);
  }
}
