import { en, type MessageKey, type Messages } from './en.ts';

/** Lazily loaded locales: each is its own chunk, fetched only when chosen (the widget's mechanism). */
const LOADERS: Record<string, () => Promise<{ messages: Messages }>> = {
  ar: () => import('./locales/ar.ts'),
  de: () => import('./locales/de.ts'),
};

export const CONSOLE_LOCALES: readonly string[] = ['en', ...Object.keys(LOADERS)];

/** Each language named in itself, for the language menu. */
export const LOCALE_NAMES: Record<string, string> = { en: 'English', de: 'Deutsch', ar: 'العربية' };

const RTL = new Set(['ar', 'fa', 'he', 'ur']);

/**
 * Picks the first supported locale among the requested ones (BCP 47 tags; region dropped), else `en`.
 *
 * @example
 *   negotiateConsoleLocale(['de-AT', 'en']) // → 'de'
 */
export function negotiateConsoleLocale(requested: readonly (string | null | undefined)[]): string {
  for (const tag of requested) {
    const language = tag?.toLowerCase().split(/[-_]/)[0];
    if (language && CONSOLE_LOCALES.includes(language)) return language;
  }
  return 'en';
}

export function isRtl(locale: string): boolean {
  return RTL.has(locale.split('-')[0] ?? locale);
}

/** Resolves to the messages of a supported locale; English without a network round trip. */
export async function loadConsoleMessages(locale: string): Promise<Messages> {
  const loader = LOADERS[locale];
  return loader ? (await loader()).messages : en;
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/**
 * Binds messages into `t(key, params)`; a missing translation falls back to English, an unknown key (a code
 * the server added later, looked up by `t.code`) to the key itself.
 *
 * @example
 *   const t = consoleTranslator(en);
 *   t('queueCount', { count: 3 }) // → '3 waiting'
 */
export function consoleTranslator(messages: Messages): Translate {
  return (key, params) => {
    const template = messages[key] ?? en[key] ?? key;
    return params
      ? template.replace(/\{(\w+)\}/g, (all, name: string) => String(params[name] ?? all))
      : template;
  };
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
