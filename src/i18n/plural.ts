/**
 * A message that pastes a number into a sentence: one text per CLDR plural category the locale uses
 * (`Intl.PluralRules#resolvedOptions().pluralCategories`), `other` always among them. English needs
 * `one` and `other`; Arabic all six; Japanese only `other`.
 */
export type PluralMessage = Readonly<Partial<Record<Intl.LDMLPluralRule, string>>> & {
  readonly other: string;
};

export function isPluralMessage(message: string | PluralMessage): message is PluralMessage {
  return typeof message === 'object';
}

/** One `Intl.PluralRules` per locale: building one loads locale data, choosing a form should not. */
const RULES = new Map<string, Intl.PluralRules>();

function pluralRules(locale: string): Intl.PluralRules {
  let rules = RULES.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    RULES.set(locale, rules);
  }
  return rules;
}

/**
 * The form of `message` for `count` in `locale`. A category the locale's rules name but the message
 * lacks (a browser whose CLDR is newer than the translation) falls back to `other`.
 *
 * @example
 *   pluralForm('pl', { one: '{count} plik', few: '{count} pliki', many: '{count} plików', other: '…' }, 5)
 *   // → '{count} plików'
 */
export function pluralForm(locale: string, message: PluralMessage, count: number): string {
  return message[pluralRules(locale).select(count)] ?? message.other;
}
