import { expect } from '@open-wc/testing';
import {
  browserLanguages,
  chooseLocale,
  LocaleController,
} from '../../../src/controllers/locale-controller.ts';
import { en } from '../../../src/i18n/en.ts';
import { until } from '../support/dom.ts';
import { type ControllerTestHost, mountHost } from './test-host.ts';

describe('LocaleController', () => {
  let host: ControllerTestHost;
  beforeEach(() => {
    host = mountHost();
  });
  afterEach(() => host.remove());

  describe('the fallback chain: locale attribute, session locale, browser languages, English', () => {
    it('takes the attribute first', () => {
      expect(chooseLocale({ attribute: 'de', session: 'fr', browser: ['es'] })).to.equal('de');
    });
    it('takes the session locale when the attribute is unset or unsupported', () => {
      expect(chooseLocale({ attribute: null, session: 'fr-CA', browser: ['es'] })).to.equal('fr');
      expect(chooseLocale({ attribute: 'xx', session: 'fr', browser: ['es'] })).to.equal('fr');
    });
    it('then the browser languages, in order, skipping unsupported ones', () => {
      expect(
        chooseLocale({ attribute: undefined, session: null, browser: ['xx-YY', 'pt-BR', 'de'] }),
      ).to.equal('pt');
    });
    it('ends in English', () => {
      expect(chooseLocale({ attribute: 'xx', session: 'yy', browser: ['zz'] })).to.equal('en');
      expect(chooseLocale({ attribute: null, session: null, browser: [] })).to.equal('en');
    });
    it('reads the browser languages from navigator', () => {
      expect(browserLanguages()).to.deep.equal(
        navigator.languages.length ? navigator.languages : [navigator.language],
      );
    });
  });

  it('starts in English, loads the chosen locale and tells the host', async () => {
    let loaded = 0;
    const locale = new LocaleController(host, () => loaded++);
    expect(locale.language).to.equal('en');
    expect(locale.t('title')).to.equal(en.title);
    const before = host.updates;
    await locale.choose({ attribute: 'de', session: null, browser: [] });
    expect(locale.language).to.equal('de');
    expect(locale.t('title')).to.not.equal(en.title);
    expect(loaded).to.equal(1);
    expect(host.updates).to.be.greaterThan(before);
  });

  it('loads nothing again when the chain chooses the same language (every session poll)', async () => {
    let loaded = 0;
    const locale = new LocaleController(host, () => loaded++);
    await locale.choose({ attribute: null, session: 'fr', browser: [] });
    await locale.choose({ attribute: 'fr-BE', session: null, browser: ['de'] });
    expect(loaded).to.equal(1);
    expect(locale.language).to.equal('fr');
  });

  it('keeps the last choice when an earlier, slower one answers after it', async () => {
    const locale = new LocaleController(host);
    const first = locale.choose({ attribute: 'ja', session: null, browser: [] });
    const second = locale.choose({ attribute: 'en', session: null, browser: [] });
    await Promise.all([first, second]);
    await until(() => locale.language === 'en', 1000, 'english kept');
    expect(locale.t('title')).to.equal(en.title);
  });

  it('switches right to left and back by language', async () => {
    const locale = new LocaleController(host);
    await locale.choose({ attribute: 'ar', session: null, browser: [] });
    expect(locale.language).to.equal('ar');
    await locale.choose({ attribute: null, session: null, browser: ['en-GB'] });
    expect(locale.language).to.equal('en');
  });
});
