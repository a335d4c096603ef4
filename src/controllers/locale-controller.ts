import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { en } from '../i18n/en.ts';
import { loadMessages, negotiateLocale, type Translate, translator } from '../i18n/localize.ts';

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
 * Owns the element's language: picks it by the fallback chain, loads its message chunk (English is
 * bundled), and exposes `t` and `language` for rendering. A chunk that fails to load leaves English,
 * and a slower answer for a language no longer wanted is dropped.
 *
 * @example
 *   #locale = new LocaleController(this, () => this.#announce());
 *   willUpdate() { void this.#locale.choose({ attribute: this.locale, session: null, browser: browserLanguages() }); }
 */
export class LocaleController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #onLoaded: () => void;
  #t: Translate = translator(en);
  #language = 'en';
  /** The locale last asked for, so an unchanged chain (every session poll) loads nothing again. */
  #wanted: string | null = null;
  #request = 0;

  constructor(host: ReactiveControllerHost, onLoaded: () => void = () => {}) {
    this.#host = host;
    this.#onLoaded = onLoaded;
    host.addController(this);
  }

  /** `t(key, params)` in the current language (English until a chunk has loaded). */
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
    let messages = en;
    try {
      messages = (await loadMessages(wanted)) as typeof en;
    } catch {
      // A chunk that failed to load (offline, CDN hiccup): English is better than nothing. Forget the
      // choice so the next change of sources tries the chunk again.
      this.#wanted = null;
    }
    if (request !== this.#request) return;
    this.#t = translator(messages);
    this.#language = messages === en ? 'en' : wanted;
    this.#host.requestUpdate();
    this.#onLoaded();
  }
}
