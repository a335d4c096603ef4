import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  FALLBACK_TRANSLATE,
  loadMessages,
  negotiateLocale,
  type Translate,
  translator,
} from '../i18n/localize.ts';

/** Where a preferred language can come from, strongest first. */
export interface LocaleSources {
  /** The element's `locale` attribute. */
  attribute: string | null | undefined;
  /** A `locale` the session view carries (a server that knows the end-user's language sends one). */
  session: string | null | undefined;
  /** The browser's languages, `navigator.languages` (or `navigator.language`). */
  browser: readonly string[];
}

/** The browser's languages, or none outside a browser (SSR). */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/**
 * The fallback chain: the `locale` attribute, then the session's locale, then the browser's languages,
 * then English. Each tag counts by its language (`pt-BR` → `pt`); an unsupported one passes to the next.
 *
 * @example
 *   chooseLocale({ attribute: 'xx', session: 'fr-CA', browser: ['de'] }) // → 'fr'
 */
export function chooseLocale(sources: LocaleSources): string {
  return negotiateLocale([sources.attribute, sources.session, ...sources.browser]);
}

/**
 * Owns the element's language: picks it by the fallback chain, loads its message chunk (every locale,
 * English included, is a chunk), and exposes `t` and `language` for rendering. A chunk that fails to load
 * falls back to English's, and without that to the few built-in strings (loading, offline, retry); a
 * slower answer for a language no longer wanted is dropped. `ready` settles once the first answer is in,
 * for the shell to show its first screen in words, not keys.
 *
 * @example
 *   #locale = new LocaleController(this, () => this.#announce());
 *   willUpdate() { void this.#locale.choose({ attribute: this.locale, session: null, browser: browserLanguages() }); }
 */
export class LocaleController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #onLoaded: () => void;
  #t: Translate = FALLBACK_TRANSLATE;
  #language = 'en';
  #settle: () => void = () => {};
  /** Settles when the first choice has its messages (or has given up on them). */
  readonly ready: Promise<void> = new Promise((resolve) => {
    this.#settle = resolve;
  });
  /** The locale last asked for, so an unchanged chain (every session poll) loads nothing again. */
  #wanted: string | null = null;
  #request = 0;

  constructor(host: ReactiveControllerHost, onLoaded: () => void = () => {}) {
    this.#host = host;
    this.#onLoaded = onLoaded;
    host.addController(this);
  }

  /** `t(key, params)` in the current language (the built-in strings until a chunk has loaded). */
  get t(): Translate {
    return this.#t;
  }

  /** The language shown: a supported locale code, `en` when a chunk failed to load. */
  get language(): string {
    return this.#language;
  }

  /** Nothing to set up: the host drives this controller (a `ReactiveController` needs one hook). */
  hostConnected(): void {}

  /** Loads the language the sources choose, unless it is already the one chosen. */
  async choose(sources: LocaleSources): Promise<void> {
    const wanted = chooseLocale(sources);
    if (wanted === this.#wanted) return;
    this.#wanted = wanted;
    const request = ++this.#request;
    const loaded = await this.#load(wanted);
    if (request !== this.#request) return;
    if (loaded) {
      this.#t = translator(loaded.messages);
      this.#language = loaded.language;
    }
    this.#settle();
    this.#host.requestUpdate();
    this.#onLoaded();
  }

  /** The wanted chunk, else English's, else nothing (offline before any chunk arrived). */
  async #load(wanted: string) {
    for (const language of wanted === 'en' ? ['en'] : [wanted, 'en']) {
      try {
        return { language, messages: await loadMessages(language) };
      } catch {
        // A chunk that failed to load (offline, CDN hiccup): forget the choice so the next change of
        // sources tries it again, and try English meanwhile.
        this.#wanted = null;
      }
    }
    return null;
  }
}
