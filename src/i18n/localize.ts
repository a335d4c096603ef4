import { en, type MessageKey, type Messages } from './en.ts';

/**
 * Lazily loaded locales: each is its own chunk, fetched only when chosen. Literal `import()` calls so
 * bundlers can see and split them.
 */
const LOADERS: Record<string, () => Promise<{ messages: Messages }>> = {
  ar: () => import('./locales/ar.ts'),
  de: () => import('./locales/de.ts'),
  es: () => import('./locales/es.ts'),
  fr: () => import('./locales/fr.ts'),
  it: () => import('./locales/it.ts'),
  ja: () => import('./locales/ja.ts'),
  nl: () => import('./locales/nl.ts'),
  pl: () => import('./locales/pl.ts'),
  pt: () => import('./locales/pt.ts'),
  tr: () => import('./locales/tr.ts'),
  zh: () => import('./locales/zh.ts'),
};

export const SUPPORTED_LOCALES: readonly string[] = ['en', ...Object.keys(LOADERS)];

/** Languages written right to left. */
const RTL = new Set(['ar', 'fa', 'he', 'ur']);

/**
 * Picks the first supported locale among the requested ones (BCP 47 tags; region dropped), else `en`.
 *
 * @example
 *   negotiateLocale(['pt-BR', 'en']) // → 'pt'
 */
export function negotiateLocale(requested: readonly (string | null | undefined)[]): string {
  for (const tag of requested) {
    const language = tag?.toLowerCase().split(/[-_]/)[0];
    if (language && SUPPORTED_LOCALES.includes(language)) return language;
  }
  return 'en';
}

export function isRtl(locale: string): boolean {
  return RTL.has(locale.split('-')[0] ?? locale);
}

/** Resolves to the messages of a supported locale; English without a network round trip. */
export async function loadMessages(locale: string): Promise<Messages> {
  const loader = LOADERS[locale];
  if (!loader) return en;
  return (await loader()).messages;
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/**
 * Binds messages into a `t(key, params)` function; a missing translation falls back to English.
 *
 * @example
 *   const t = translator(messages);
 *   t('stepOf', { current: 1, total: 3 }) // → 'Step 1 of 3'
 */
export function translator(messages: Messages): Translate {
  return (key, params) => {
    const template = messages[key] ?? en[key];
    return params
      ? template.replace(/\{(\w+)\}/g, (all, name: string) => String(params[name] ?? all))
      : template;
  };
}
