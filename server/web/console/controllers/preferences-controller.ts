import { ContextProvider } from '@lit/context';
import type { ReactiveController, ReactiveElement } from 'lit';
import type { ConsoleApi, Environment, Schemas } from '../api/console-api.ts';
import { ENVIRONMENTS } from '../api/lists.ts';
import { translateContext } from '../context.ts';
import { en } from '../i18n/en.ts';
import {
  consoleTranslator,
  isRtl,
  loadConsoleMessages,
  negotiateConsoleLocale,
  type Translate,
} from '../i18n/localize.ts';
import { initialEnvironment, rememberEnvironment, waitingCounts } from '../ui/environment-choice.ts';
import { readPreference, writePreference } from '../ui/preferences.ts';

type Me = Schemas['Me'];

export type ConsoleTheme = 'auto' | 'light' | 'dark';
export const THEMES: readonly ConsoleTheme[] = ['auto', 'light', 'dark'];

/** The host's properties this controller reads and sets: the reflected theme, the wanted locale. */
export interface PreferencesHost extends ReactiveElement {
  theme: ConsoleTheme;
  locale: string | null;
}

/**
 * The user's display choices: the language (its messages loaded, `t` provided to every element by
 * context, the page's `lang` and `dir` set), the theme and the environment (this tab's, with the number
 * of sessions waiting in each, for the picker). Choices are remembered as ui/preferences.ts says.
 *
 * @example
 *   readonly #preferences = new PreferencesController(this, () => this.api);
 *   willUpdate(changed) { if (changed.has('locale')) void this.#preferences.loadLocale(); }
 */
export class PreferencesController implements ReactiveController {
  t: Translate = consoleTranslator(en, 'en');
  /** The language shown: a console locale, `en` when a chunk failed to load. */
  language = 'en';
  environment: Environment;
  /** Sessions waiting for review per environment, shown in the picker; null until read. */
  waiting: Record<Environment, number | null> | null = null;
  readonly #host: PreferencesHost;
  readonly #api: () => ConsoleApi;
  readonly #translate: ContextProvider<typeof translateContext>;
  /** Called after a new language is in place (the shell re-titles the page). */
  readonly #onLanguage: () => void;
  #localeRequest = 0;

  constructor(host: PreferencesHost, api: () => ConsoleApi, onLanguage: () => void = () => {}) {
    this.#host = host;
    this.#api = api;
    this.#onLanguage = onLanguage;
    const theme = readPreference('local', 'theme') as ConsoleTheme | null;
    host.theme = theme && THEMES.includes(theme) ? theme : 'auto';
    this.environment = readPreference('session', 'environment') === 'sandbox' ? 'sandbox' : 'production';
    this.#translate = new ContextProvider(host, { context: translateContext, initialValue: this.t });
    host.addController(this);
  }

  hostConnected(): void {}

  get dir(): 'rtl' | 'ltr' {
    return isRtl(this.language) ? 'rtl' : 'ltr';
  }

  /**
   * Loads the language the host's `locale`, else the remembered choice, else the browser's languages ask
   * for; a slower answer for a language no longer wanted is dropped.
   */
  async loadLocale(): Promise<void> {
    const request = ++this.#localeRequest;
    const wanted = negotiateConsoleLocale([
      this.#host.locale,
      readPreference('local', 'locale'),
      ...(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])),
    ]);
    let messages = en;
    try {
      messages = await loadConsoleMessages(wanted);
    } catch {
      // A locale chunk that fails to load leaves the console in English rather than broken.
    }
    if (request !== this.#localeRequest) return;
    this.language = messages === en ? 'en' : wanted;
    this.t = consoleTranslator(messages, this.language);
    this.#translate.setValue(this.t);
    document.documentElement.lang = this.language;
    document.documentElement.dir = this.dir;
    this.#host.requestUpdate();
    this.#onLanguage();
  }

  chooseLocale(value: string): void {
    writePreference('local', 'locale', value);
    this.#host.locale = value;
  }

  chooseTheme(value: string): void {
    if (!THEMES.includes(value as ConsoleTheme)) return;
    this.#host.theme = value as ConsoleTheme;
    writePreference('local', 'theme', value);
  }

  chooseEnvironment(value: string, me: Me | null): void {
    if (!ENVIRONMENTS.includes(value as Environment)) return;
    this.environment = value as Environment;
    rememberEnvironment(me?.user.user_id, this.environment);
    this.#host.requestUpdate();
    this.#countWaiting(me);
  }

  /**
   * Once the user is known: this tab's environment, else their last one, else sandbox for a tenant with
   * no production session (ui/environment-choice.ts); then the picker's waiting counts.
   */
  async settleEnvironment(me: Me): Promise<void> {
    const canRead = me.capabilities.includes('sessions:read');
    this.environment = await initialEnvironment(this.#api(), me.user.user_id, canRead);
    this.#host.requestUpdate();
    this.#countWaiting(me);
  }

  #countWaiting(me: Me | null): void {
    if (!me?.capabilities.includes('sessions:read')) return;
    void waitingCounts(this.#api()).then((counts) => {
      this.waiting = counts;
      this.#host.requestUpdate();
    });
  }
}
