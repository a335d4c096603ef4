import { isPluralMessage, type PluralMessage, pluralForm } from './plural.ts';

/**
 * The i18n core the widget and the staff console share: choosing a language among the supported ones,
 * its writing direction, and turning a message (a string, or plural forms) and its params into text.
 * Each app keeps only its own message sets and their loaders (src/i18n/localize.ts for the widget,
 * server/web/console/i18n/localize.ts for the console), so both follow the same plural and RTL rules.
 */

/** A message as a locale file holds it: text with `{name}` placeholders, or one text per plural form. */
export type Message = string | PluralMessage;

export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * Language subtags that name a supported locale under another code: the macrolanguage `no` and
 * Nynorsk read Bokmål, `tl` is the code Tagalog/Filipino browsers often send, `iw`/`in` are the
 * withdrawn codes older Android and Java still send for Hebrew and Indonesian.
 */
const ALIASES: Readonly<Record<string, string>> = { no: 'nb', nn: 'nb', tl: 'fil', iw: 'he', in: 'id' };

/** Languages written right to left. */
const RTL = new Set(['ar', 'fa', 'he', 'ur']);

/**
 * Picks the first supported locale among the requested ones (BCP 47 tags; region and script dropped),
 * else `en`.
 *
 * @example
 *   negotiateLanguage(['pt-BR', 'en'], ['en', 'pt']) // → 'pt'
 *   negotiateLanguage(['no-NO'], ['en', 'nb']) // → 'nb'
 */
export function negotiateLanguage(
  requested: readonly (string | null | undefined)[],
  supported: readonly string[],
): string {
  for (const tag of requested) {
    const subtag = tag?.trim().toLowerCase().split(/[-_]/)[0];
    const language = subtag ? (ALIASES[subtag] ?? subtag) : undefined;
    if (language && supported.includes(language)) return language;
  }
  return 'en';
}

export function isRtl(locale: string): boolean {
  return RTL.has(locale.split('-')[0] ?? locale);
}

/**
 * The number a plural message is chosen by: its `count` param, else its only numeric param (so
 * `{seconds}` works without the caller renaming it); none means the `other` form.
 */
function pluralCount(params: MessageParams | undefined): number | undefined {
  if (!params) return undefined;
  if (typeof params.count === 'number') return params.count;
  const numbers = Object.values(params).filter((value): value is number => typeof value === 'number');
  return numbers.length === 1 ? numbers[0] : undefined;
}

/**
 * The text of `message` in `locale`: a plural message takes the form `Intl.PluralRules` picks for its
 * count, then each `{name}` is replaced by its param (an unknown one stays as written).
 *
 * @example
 *   formatMessage('en', { one: '{count} attempt left', other: '{count} attempts left' }, { count: 1 })
 *   // → '1 attempt left'
 */
export function formatMessage(locale: string, message: Message, params?: MessageParams): string {
  let template: string;
  if (isPluralMessage(message)) {
    const count = pluralCount(params);
    template = count === undefined ? message.other : pluralForm(locale, message, count);
  } else {
    template = message;
  }
  return params
    ? template.replace(/\{(\w+)\}/g, (all, name: string) => String(params[name] ?? all))
    : template;
}
