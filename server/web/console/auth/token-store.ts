const KEY = 'idv-console-token';

interface StoredToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** sessionStorage when the browser allows it (private modes and sandboxed frames may throw). */
function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The console's access token: in memory, mirrored in sessionStorage so a reload of the tab keeps the user
 * logged in. Never localStorage: the token must die with the tab and never be shared with other tabs or
 * outlive the browser session.
 *
 * @example
 *   const store = new TokenStore();
 *   store.set(login.access_token, login.expires_in);
 *   store.token; // → the token until it expires, then null
 */
export class TokenStore {
  #current: StoredToken | null;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#current = TokenStore.#read();
  }

  static #read(): StoredToken | null {
    try {
      const raw = storage()?.getItem(KEY);
      if (!raw) return null;
      const parsed = JSON.parse(raw) as Partial<StoredToken>;
      return typeof parsed.token === 'string' && typeof parsed.expiresAt === 'number'
        ? { token: parsed.token, expiresAt: parsed.expiresAt }
        : null;
    } catch {
      return null;
    }
  }

  /** The token, or null when there is none or it has expired (the server would answer 401 anyway). */
  get token(): string | null {
    if (this.#current && this.#current.expiresAt <= this.#now()) this.clear();
    return this.#current?.token ?? null;
  }

  /** Milliseconds until the token expires; 0 without one. */
  get remainingMs(): number {
    return this.#current ? Math.max(0, this.#current.expiresAt - this.#now()) : 0;
  }

  set(token: string, expiresInSeconds: number): void {
    this.#current = { token, expiresAt: this.#now() + expiresInSeconds * 1000 };
    try {
      storage()?.setItem(KEY, JSON.stringify(this.#current));
    } catch {
      // Storage full or forbidden: the token still lives in memory for this page.
    }
  }

  clear(): void {
    this.#current = null;
    try {
      storage()?.removeItem(KEY);
    } catch {
      // Nothing stored, nothing to remove.
    }
  }
}
