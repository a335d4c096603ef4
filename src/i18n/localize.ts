import type { MessageKey, Messages } from './en.ts';
import { FALLBACK_MESSAGES } from './fallback-messages.ts';
import { formatMessage, isRtl, negotiateLanguage } from './message-format.ts';

/**
 * Lazily loaded locales, English included: each is its own chunk, fetched only when chosen, so a German
 * end-user never downloads English and the script-tag file stays small. Literal `import()` calls so
 * bundlers can see and split them. docs/localization.md lists them with their languages.
 */
const LOADERS: Record<string, () => Promise<{ messages: Messages }>> = {
  en: async () => ({ messages: (await import('./en.ts')).en }),
  ar: () => import('./locales/ar.ts'),
  bg: () => import('./locales/bg.ts'),
  bn: () => import('./locales/bn.ts'),
  ca: () => import('./locales/ca.ts'),
  cs: () => import('./locales/cs.ts'),
  da: () => import('./locales/da.ts'),
  de: () => import('./locales/de.ts'),
  el: () => import('./locales/el.ts'),
  es: () => import('./locales/es.ts'),
  et: () => import('./locales/et.ts'),
  fa: () => import('./locales/fa.ts'),
  fi: () => import('./locales/fi.ts'),
  fil: () => import('./locales/fil.ts'),
  fr: () => import('./locales/fr.ts'),
  ga: () => import('./locales/ga.ts'),
  he: () => import('./locales/he.ts'),
  hi: () => import('./locales/hi.ts'),
  hr: () => import('./locales/hr.ts'),
  hu: () => import('./locales/hu.ts'),
  id: () => import('./locales/id.ts'),
  it: () => import('./locales/it.ts'),
  ja: () => import('./locales/ja.ts'),
  ko: () => import('./locales/ko.ts'),
  lt: () => import('./locales/lt.ts'),
  lv: () => import('./locales/lv.ts'),
  ms: () => import('./locales/ms.ts'),
  mt: () => import('./locales/mt.ts'),
  nb: () => import('./locales/nb.ts'),
  nl: () => import('./locales/nl.ts'),
  pl: () => import('./locales/pl.ts'),
  pt: () => import('./locales/pt.ts'),
  ro: () => import('./locales/ro.ts'),
  ru: () => import('./locales/ru.ts'),
  sk: () => import('./locales/sk.ts'),
  sl: () => import('./locales/sl.ts'),
  sr: () => import('./locales/sr.ts'),
  sv: () => import('./locales/sv.ts'),
  th: () => import('./locales/th.ts'),
  tr: () => import('./locales/tr.ts'),
  uk: () => import('./locales/uk.ts'),
  ur: () => import('./locales/ur.ts'),
  vi: () => import('./locales/vi.ts'),
  zh: () => import('./locales/zh.ts'),
};

export const SUPPORTED_LOCALES: readonly string[] = Object.keys(LOADERS);

/** The direction of a locale's script; the one RTL list lives in the shared core. */
export { isRtl };

/**
 * Picks the first supported locale among the requested ones (BCP 47 tags; region and script dropped),
 * else `en`.
 *
 * @example
 *   negotiateLocale(['pt-BR', 'en']) // → 'pt'
 *   negotiateLocale(['no-NO']) // → 'nb'
 */
export function negotiateLocale(requested: readonly (string | null | undefined)[]): string {
  return negotiateLanguage(requested, SUPPORTED_LOCALES);
}

/**
 * The locale each loaded message set is in, so `translator(messages)` picks plural forms by the
 * right rules without its callers passing the locale again.
 */
const LOCALE_OF = new WeakMap<Messages, string>();

/** Resolves to the messages of a supported locale (an unsupported one reads English). */
export async function loadMessages(locale: string): Promise<Messages> {
  const code = LOADERS[locale] ? locale : 'en';
  const { messages } = await (LOADERS[code] as () => Promise<{ messages: Messages }>)();
  LOCALE_OF.set(messages, code);
  return messages;
}

/** What `t` reads before any chunk has loaded: the fallback strings, the key itself for the rest. */
export const FALLBACK_TRANSLATE: Translate = (key) => translate(FALLBACK_MESSAGES, 'en', key);

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/**
 * Binds messages into a `t(key, params)` function.
 * A plural message takes the form `Intl.PluralRules` of the messages' locale picks for its count.
 *
 * @example
 *   const t = translator(messages);
 *   t('stepOf', { current: 1, total: 3 }) // → 'Step 1 of 3'
 *   t('attemptsRemaining', { count: 1 }) // → '1 attempt left'
 */
export function translator(messages: Messages, locale = LOCALE_OF.get(messages) ?? 'en'): Translate {
  return (key, params) => translate(messages, locale, key, params);
}

function translate(
  messages: Partial<Messages>,
  locale: string,
  key: MessageKey,
  params?: Record<string, string | number>,
): string {
  // Every shipped locale has every key (test/node/i18n/locales.test.ts); a host's partial set falls back.
  const message = messages[key] ?? (FALLBACK_MESSAGES as Partial<Messages>)[key] ?? key;
  return formatMessage(locale, message, params);
}
