import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en } from '../../../src/i18n/en.ts';
import { FALLBACK_MESSAGES } from '../../../src/i18n/fallback-messages.ts';
import {
  FALLBACK_TRANSLATE,
  loadMessages,
  SUPPORTED_LOCALES,
  translator,
} from '../../../src/i18n/localize.ts';

describe('the built-in strings the widget shows before any locale chunk', () => {
  it('are English’s own, word for word', () => {
    for (const [key, text] of Object.entries(FALLBACK_MESSAGES)) {
      assert.equal(text, en[key as keyof typeof en], key);
    }
  });

  it('answer their keys and, for any other, the key itself rather than a blank', () => {
    assert.equal(FALLBACK_TRANSLATE('offlineBody'), en.offlineBody);
    assert.equal(FALLBACK_TRANSLATE('consentTitle'), 'consentTitle');
  });

  it('leave English to a chunk of its own like every locale, and an unknown locale reads it', async () => {
    assert.ok(SUPPORTED_LOCALES.includes('en'));
    const messages = await loadMessages('xx');
    assert.equal(messages, en);
    assert.equal(translator(messages)('attemptsRemaining', { count: 2 }), '2 attempts left');
  });
});
