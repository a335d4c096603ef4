import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en, type Messages } from '../../../server/web/console/i18n/en.ts';
import {
  CONSOLE_LOCALES,
  consoleTranslator,
  isRtl as consoleIsRtl,
  loadConsoleMessages,
  negotiateConsoleLocale,
} from '../../../server/web/console/i18n/localize.ts';
import { isRtl as widgetIsRtl } from '../../../src/i18n/localize.ts';
import { isRtl } from '../../../src/i18n/message-format.ts';

/** The console's translator is the widget's i18n core with the console's messages (issue 23). */
describe('console i18n', () => {
  it('picks plural forms by the locale’s rules, as the widget does', () => {
    const messages = {
      ...en,
      queueCount: {
        one: '{count} plik',
        few: '{count} pliki',
        many: '{count} plików',
        other: '{count} pliku',
      },
    } as unknown as Messages;
    const t = consoleTranslator(messages, 'pl');
    assert.equal(t('queueCount', { count: 1 }), '1 plik');
    assert.equal(t('queueCount', { count: 3 }), '3 pliki');
    assert.equal(t('queueCount', { count: 5 }), '5 plików');
    assert.equal(t('queueCount'), '{count} pliku');
  });

  it('fills placeholders, keeps unknown ones, falls back to English and then to the key', () => {
    const t = consoleTranslator({ ...en, logout: undefined } as unknown as Messages, 'de');
    assert.equal(t('queueCount', { count: 3 }), '3 waiting');
    assert.equal(t('pageTitle', {}), '{page} · id-verify console');
    assert.equal(t('logout'), 'Log out');
    assert.equal(t('status_someday' as never), 'status_someday');
  });

  it('negotiates among its own locales by language subtag', () => {
    assert.equal(negotiateConsoleLocale(['de-AT', 'en']), 'de');
    assert.equal(negotiateConsoleLocale(['fr', 'ar-EG']), 'ar');
    assert.equal(negotiateConsoleLocale(['fr', null, undefined]), 'en');
    assert.deepEqual([...CONSOLE_LOCALES].sort(), ['ar', 'de', 'en']);
  });

  it('has one RTL list: the console’s and the widget’s direction are the core’s', () => {
    assert.equal(consoleIsRtl, isRtl);
    assert.equal(widgetIsRtl, isRtl);
    assert.ok(isRtl('ar') && isRtl('he-IL') && !isRtl('de'));
  });

  it('loads each locale with every English key, in the same shape (text or plural forms)', async () => {
    for (const locale of CONSOLE_LOCALES) {
      const messages = await loadConsoleMessages(locale);
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        assert.equal(typeof messages[key], typeof en[key], `${locale}.${key}`);
      }
    }
  });
});
