import {
  formatMessage,
  isRtl,
  type MessageParams,
  negotiateLanguage,
} from '../../../../src/i18n/message-format.ts';
import { en, type MessageKey, type Messages } from './en.ts';

/**
 * The console's languages and their loaders. Choosing a language, its direction, plural forms and
 * placeholders come from the i18n core the widget uses too (src/i18n/message-format.ts).
 */

/** Lazily loaded locales: each is its own chunk, fetched only when chosen (the widget's mechanism). */
const LOADERS: Record<string, () => Promise<{ messages: Messages }>> = {
  ar: () => import('./locales/ar.ts'),
  de: () => import('./locales/de.ts'),
};

export const CONSOLE_LOCALES: readonly string[] = ['en', ...Object.keys(LOADERS)];

/** Each language named in itself, for the language menu. */
export const LOCALE_NAMES: Record<string, string> = { en: 'English', de: 'Deutsch', ar: 'العربية' };

export { isRtl };

/**
 * Picks the first console locale among the requested ones (BCP 47 tags; region dropped), else `en`.
 *
 * @example
 *   negotiateConsoleLocale(['de-AT', 'en']) // → 'de'
 */
export function negotiateConsoleLocale(requested: readonly (string | null | undefined)[]): string {
  return negotiateLanguage(requested, CONSOLE_LOCALES);
}

/** Resolves to the messages of a supported locale; English without a network round trip. */
export async function loadConsoleMessages(locale: string): Promise<Messages> {
  const loader = LOADERS[locale];
  return loader ? (await loader()).messages : en;
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

/**
 * Binds messages in `locale` into `t(key, params)`; a missing translation falls back to English, an
 * unknown key (a code the server added later, looked up by `codeLabel`) to the key itself. A plural
 * message takes the form the locale's plural rules pick for its count.
 *
 * @example
 *   const t = consoleTranslator(en, 'en');
 *   t('queueCount', { count: 3 }) // → '3 waiting'
 */
export function consoleTranslator(messages: Messages, locale: string): Translate {
  return (key, params) => formatMessage(locale, messages[key] ?? en[key] ?? key, params);
}

/**
 * The label of an API code under a message-key prefix (`status_`, `check_`, `reason_` …), or the code
 * itself when the console has no label for it yet (clients must accept unknown codes, API.md §1).
 *
 * @example
 *   codeLabel(t, 'status_', 'review_required') // → 'Review required'
 */
export function codeLabel(t: Translate, prefix: string, code: string): string {
  const key = `${prefix}${code}`;
  return key in en ? t(key as MessageKey) : code;
}
