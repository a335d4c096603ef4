import { ContextConsumer, createContext } from '@lit/context';
import type { ReactiveElement } from 'lit';
import type { ConsoleApi } from './api/console-api.ts';
import { en } from './i18n/en.ts';
import { consoleTranslator, type Translate } from './i18n/localize.ts';

/**
 * What `<idv-console>` provides to every element inside it (@lit/context), so screens and the small
 * elements they render reach the translator and the API client without each parent passing them on.
 */

/** `t(key, params)` in the language shown; a new function whenever the language changes. */
export const translateContext = createContext<Translate>(Symbol('idv-console-translate'));

/** The one API client: the session's token, the environment, 401 handling. */
export const apiContext = createContext<ConsoleApi>(Symbol('idv-console-api'));

/** What a consumer reads before (or without) a provider: English. */
const ENGLISH = consoleTranslator(en, 'en');

/**
 * Subscribes `host` to the console's translator: it re-renders in the new language when the user picks
 * one. Returns the reader of the current `t`.
 *
 * @example
 *   readonly #t = consumeTranslator(this);
 *   render() { return html`${this.#t()('copy')}`; }
 */
export function consumeTranslator(host: ReactiveElement): () => Translate {
  const consumer = new ContextConsumer(host, { context: translateContext, subscribe: true });
  return () => consumer.value ?? ENGLISH;
}

/** The shell's API client for `host`, read when needed (a console element only renders inside the shell). */
export function consumeApi(host: ReactiveElement): () => ConsoleApi {
  const consumer = new ContextConsumer(host, { context: apiContext });
  return () => {
    if (!consumer.value) throw new Error('A console element needs <idv-console> around it (the API client).');
    return consumer.value;
  };
}
