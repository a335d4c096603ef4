import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { en, type MessageKey, type Messages } from '../../../src/i18n/en.ts';
import {
  isRtl,
  loadMessages,
  negotiateLocale,
  SUPPORTED_LOCALES,
  translator,
} from '../../../src/i18n/localize.ts';
import { isPluralMessage, type PluralMessage } from '../../../src/i18n/plural.ts';

const localesDir = join(import.meta.dirname, '../../../src/i18n/locales');
const localeFiles = readdirSync(localesDir).map((file) => file.replace(/\.ts$/, ''));
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
const keys = Object.keys(en) as MessageKey[];

/** The languages of the EU, the G20 and the large markets the widget must speak (issue #14). */
const REQUIRED = [
  ...['bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fi', 'fr', 'ga', 'hr', 'hu', 'it', 'lt', 'lv'],
  ...['mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv', 'ar', 'zh', 'hi', 'id', 'ja', 'ko', 'ru', 'tr'],
  ...['he', 'fa', 'ur', 'th', 'vi', 'ms', 'uk', 'bn', 'fil', 'nb', 'sr', 'ca'],
];

/** Unicode scripts per ISO 15924 code, for `\p{Script=…}`; Japanese mixes three. */
const SCRIPTS: Record<string, string[]> = {
  Latn: ['Latin'],
  Cyrl: ['Cyrillic'],
  Arab: ['Arabic'],
  Hebr: ['Hebrew'],
  Grek: ['Greek'],
  Deva: ['Devanagari'],
  Beng: ['Bengali'],
  Thai: ['Thai'],
  Kore: ['Hangul', 'Han'],
  Jpan: ['Hiragana', 'Katakana', 'Han'],
  Hans: ['Han'],
};

/** The integers 0…1000 a plural category of a locale takes. */
function integersOf(locale: string, category: string): number[] {
  const rules = new Intl.PluralRules(locale);
  return Array.from({ length: 1001 }, (_, n) => n).filter((n) => rules.select(n) === category);
}

/** The number placeholder of an English plural message: `{count}`, or its one other name (`{seconds}`). */
function countPlaceholder(message: PluralMessage): string {
  const names = placeholders(message.other);
  return names.includes('count') ? 'count' : (names[0] ?? 'count');
}

/** Each problem with a locale's messages, as readable lines: an empty list is a pass. */
function problemsOf(locale: string, messages: Messages): string[] {
  const problems: string[] = [];
  const actual = Object.keys(messages);
  for (const key of keys) if (!actual.includes(key)) problems.push(`${key}: missing`);
  for (const key of actual) if (!(key in en)) problems.push(`${key}: not a message of en`);
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  for (const key of keys) {
    const source: string | PluralMessage = en[key];
    const translated = messages[key] as string | PluralMessage | undefined;
    if (translated === undefined) continue;
    if (typeof source === 'string') {
      if (typeof translated !== 'string') {
        problems.push(`${key}: plural forms where en has one text`);
        continue;
      }
      const want = placeholders(source).join(',');
      const got = placeholders(translated).join(',');
      if (got !== want) problems.push(`${key}: placeholders {${got}} instead of {${want}}`);
      // A sentence (not a brand name or a short code) still in English is a missing translation.
      if (locale !== 'en' && source.length > 24 && translated === source) problems.push(`${key}: English`);
      if (!translated.trim()) problems.push(`${key}: empty`);
      continue;
    }
    if (!isPluralMessage(translated)) {
      problems.push(`${key}: one text where en has plural forms`);
      continue;
    }
    const forms = Object.keys(translated).sort().join(',');
    const needed = [...categories].sort().join(',');
    if (forms !== needed) problems.push(`${key}: plural forms ${forms}, ${locale} needs ${needed}`);
    const count = countPlaceholder(source);
    const others = placeholders(source.other).filter((name) => name !== count);
    for (const [category, text] of Object.entries(translated) as [string, string][]) {
      const names = placeholders(text);
      // The number may be spelt out ("one attempt", "محاولتان") only where the form stands for one number.
      const countOptional = integersOf(locale, category).length === 1;
      const want = [...others, ...(countOptional && !names.includes(count) ? [] : [count])].sort();
      if (names.join(',') !== want.join(','))
        problems.push(`${key}.${category}: placeholders {${names}} instead of {${want}}`);
      if (!text.trim()) problems.push(`${key}.${category}: empty`);
    }
  }
  return problems;
}

/** Every form of every message, for script and similarity checks. */
function textsOf(messages: Messages): string[] {
  return Object.values(messages).flatMap((message) =>
    isPluralMessage(message) ? Object.values(message) : [message],
  );
}

const all = new Map<string, Messages>();
for (const locale of SUPPORTED_LOCALES) all.set(locale, await loadMessages(locale));

describe('widget locales', () => {
  it('ships every required language, each a registered chunk with a file of its own', () => {
    assert.ok(SUPPORTED_LOCALES.length >= 40, `${SUPPORTED_LOCALES.length} locales`);
    for (const locale of REQUIRED) assert.ok(SUPPORTED_LOCALES.includes(locale), `${locale} missing`);
    assert.deepEqual(
      [...SUPPORTED_LOCALES].sort(),
      ['en', ...localeFiles].sort(),
      'src/i18n/locales/*.ts and the loaders list the same locales',
    );
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== 'en')) {
      assert.notEqual(all.get(locale), en, `${locale} loads its own messages, not English`);
    }
  });

  for (const locale of SUPPORTED_LOCALES) {
    it(`${locale}: every message of en, nothing else, the same placeholders, the plural forms it needs`, () => {
      const messages = all.get(locale);
      assert.ok(messages, locale);
      assert.deepEqual(problemsOf(locale, messages), [], locale);
    });
  }

  it('finds a missing key, an extra key, a lost placeholder and a missing plural form', () => {
    // The checker itself, on broken copies: a pass above means something only if these fail.
    const { title: _dropped, ...withoutTitle } = en;
    assert.deepEqual(problemsOf('en', withoutTitle as unknown as Messages), ['title: missing']);
    assert.deepEqual(problemsOf('en', { ...en, extra: 'x' } as unknown as Messages), [
      'extra: not a message of en',
    ]);
    assert.deepEqual(problemsOf('en', { ...en, stepOf: 'Step {current}' }), [
      'stepOf: placeholders {current} instead of {current,total}',
    ]);
    const pl = all.get('pl') as Messages;
    const { few: _few, ...noFew } = pl.attemptsRemaining;
    assert.deepEqual(problemsOf('pl', { ...pl, attemptsRemaining: noFew }), [
      'attemptsRemaining: plural forms many,one,other, pl needs few,many,one,other',
    ]);
    assert.deepEqual(
      problemsOf('ru', { ...all.get('ru'), attemptsRemaining: en.title } as unknown as Messages),
      ['attemptsRemaining: one text where en has plural forms'],
    );
    // Russian `one` is 1, 21, 31…: spelling the number out there would be wrong.
    const ru = all.get('ru') as Messages;
    assert.deepEqual(
      problemsOf('ru', { ...ru, attemptsRemaining: { ...ru.attemptsRemaining, one: 'Одна попытка' } }),
      ['attemptsRemaining.one: placeholders {} instead of {count}'],
    );
  });

  it('writes each locale in its own script', () => {
    for (const locale of SUPPORTED_LOCALES) {
      const script = new Intl.Locale(locale).maximize().script ?? '';
      const names = SCRIPTS[script];
      assert.ok(names, `${locale}: no check for script ${script}`);
      const letters =
        textsOf(all.get(locale) as Messages)
          .join(' ')
          .replace(/\{\w+\}|id-verify|WebP|\b[A-Z]{2,4}\b/g, '')
          .match(/\p{L}/gu) ?? [];
      const own = new RegExp(`^(?:${names.map((name) => `\\p{Script_Extensions=${name}}`).join('|')})$`, 'u');
      const share = letters.filter((letter) => own.test(letter)).length / letters.length;
      assert.ok(share > 0.9, `${locale}: only ${(share * 100).toFixed(0)}% of letters are ${names}`);
    }
  });

  it('is not a copy of another locale', () => {
    const long = (messages: Messages) => textsOf(messages).filter((text) => text.length > 24);
    for (const a of SUPPORTED_LOCALES) {
      for (const b of SUPPORTED_LOCALES) {
        if (a >= b) continue;
        const other = new Set(long(all.get(b) as Messages));
        const mine = long(all.get(a) as Messages);
        const same = mine.filter((text) => other.has(text)).length;
        assert.ok(same < mine.length / 10, `${a} and ${b} share ${same} of ${mine.length} sentences`);
      }
    }
  });

  it('sets right to left exactly for the locales whose script runs right to left', () => {
    for (const locale of SUPPORTED_LOCALES) {
      const locale_ = new Intl.Locale(locale) as Intl.Locale & { getTextInfo(): { direction: string } };
      assert.equal(isRtl(locale), locale_.getTextInfo().direction === 'rtl', locale);
    }
    for (const locale of ['ar', 'he', 'fa', 'ur', 'he-IL', 'fa-AF']) assert.ok(isRtl(locale), locale);
    assert.ok(!isRtl('en') && !isRtl('de'));
  });

  it('negotiates region, script and legacy tags to the language', () => {
    const cases: [string[], string][] = [
      [['pt-BR', 'en'], 'pt'],
      [['nb-NO'], 'nb'],
      [['no'], 'nb'],
      [['nn-NO'], 'nb'],
      [['tl-PH'], 'fil'],
      [['fil'], 'fil'],
      [['iw'], 'he'],
      [['zh-TW'], 'zh'],
      [['sr-Latn-RS'], 'sr'],
      [['xx', 'UK-ua'], 'uk'],
      [['xx-YY'], 'en'],
      [[], 'en'],
    ];
    for (const [requested, expected] of cases)
      assert.equal(negotiateLocale(requested), expected, `${requested}`);
  });
});

describe('plural messages', () => {
  it('picks the English form by count', () => {
    const t = translator(en);
    assert.equal(t('attemptsRemaining', { count: 1 }), '1 attempt left');
    assert.equal(t('attemptsRemaining', { count: 2 }), '2 attempts left');
    assert.equal(t('attemptsRemaining', { count: 0 }), '0 attempts left');
    // A message whose number is not called count: its one numeric param decides.
    assert.equal(t('livenessTimedHint', { seconds: 1 }), en.livenessTimedHint.one.replace('{seconds}', '1'));
    assert.equal(
      t('livenessTimedHint', { seconds: 3 }),
      en.livenessTimedHint.other.replace('{seconds}', '3'),
    );
    // No number at all: the `other` form, placeholders left for the caller to see.
    assert.equal(t('attemptsRemaining'), en.attemptsRemaining.other);
  });

  it('follows each locale’s rules, loaded messages knowing their own locale', async () => {
    const pl = translator(await loadMessages('pl'));
    const plural = (all.get('pl') as Messages).attemptsRemaining;
    for (const [count, category] of [
      [1, 'one'],
      [2, 'few'],
      [5, 'many'],
      [22, 'few'],
      [25, 'many'],
    ] as const) {
      assert.equal(pl('attemptsRemaining', { count }), plural[category]?.replace('{count}', String(count)));
    }
    const arMessages = all.get('ar') as Messages;
    const ar = translator(arMessages);
    for (const [count, category] of [
      [0, 'zero'],
      [1, 'one'],
      [2, 'two'],
      [3, 'few'],
      [11, 'many'],
      [100, 'other'],
    ] as const) {
      const form = arMessages.attemptsRemaining[category] ?? '';
      assert.equal(ar('attemptsRemaining', { count }), form.replace('{count}', String(count)), `${count}`);
    }
    // The locale can be named explicitly, for messages that did not come through loadMessages.
    const copy = { ...(all.get('ru') as Messages) };
    assert.equal(
      translator(copy, 'ru')('attemptsRemaining', { count: 3 }),
      copy.attemptsRemaining.few?.replace('{count}', '3'),
    );
  });

  it('falls back to `other` for a category the translation lacks', () => {
    // A browser whose CLDR knows a category the translation predates (like `many` for fr/es/pt).
    const t = translator({ ...en, attemptsRemaining: { other: '{count} left' } }, 'pl');
    assert.equal(t('attemptsRemaining', { count: 5 }), '5 left');
  });
});
