import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/id-verify.ts';
import type { FlowContext, FlowState } from '../../src/flow/flow-types.ts';
import type { Messages } from '../../src/i18n/en.ts';
import { isRtl, loadMessages, SUPPORTED_LOCALES } from '../../src/i18n/localize.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import { deep, screenOf, until } from './support/dom.ts';
import { everyScreen } from './support/every-screen.ts';
import { engine } from './support/engine.ts';
import { FakeVerifyApi } from './support/fake-verify-api.ts';

/**
 * Every locale must fit a 320 px phone (WCAG 1.4.10 reflow): the widget's screens rendered in the
 * locales most likely to overflow, and no text container or button whose content is wider than its box
 * or sticks out of the widget. Plus axe on Hebrew, right to left like Arabic (which
 * accessibility.test.ts covers) but with its own script and the plural forms `two`.
 */

const PHONE_WIDTH = 320;

const ctx: FlowContext = {
  steps: ['consent', 'business_details', 'business_document', 'id_document', 'liveness', 'proof_of_address'],
  completed: [],
  documentTypes: ['passport', 'id_card', 'driving_licence', 'residence_permit'],
  documentType: 'residence_permit',
  captureMode: 'upload',
  cameraIssue: 'denied',
  sandbox: true,
};

/** Every screen the end-user can meet, as the flow state that shows it. */
const SCREENS = everyScreen(ctx);

function textsOf(messages: Messages): string[] {
  return Object.values(messages).flatMap((message) =>
    typeof message === 'string' ? [message] : Object.values(message),
  );
}

/**
 * The locales to lay out: the one with the most text in all (long sentences wrap into the most lines)
 * and the one with the longest single word (a word cannot wrap, so it is what overflows a narrow button).
 * Today that is Irish (ga) and Finnish (fi, “henkilöllisyystodistuksesta”), computed, not assumed.
 */
async function riskiestLocales(): Promise<{ longestText: string; longestWord: string }> {
  let longestText = { locale: 'en', size: 0 };
  let longestWord = { locale: 'en', size: 0 };
  for (const locale of SUPPORTED_LOCALES) {
    const texts = textsOf(await loadMessages(locale)).map((text) => text.replace(/\{\w+\}/g, ''));
    const size = texts.reduce((sum, text) => sum + [...text].length, 0);
    // Words as the browser breaks lines: Thai and Japanese have no spaces but still wrap between words.
    const words = new Intl.Segmenter(locale, { granularity: 'word' });
    const word = Math.max(
      ...texts.flatMap((text) => [...words.segment(text)].map((part) => [...part.segment].length)),
    );
    if (size > longestText.size) longestText = { locale, size };
    if (word > longestWord.size) longestWord = { locale, size: word };
  }
  console.info(
    `longest text: ${longestText.locale} (${longestText.size} characters); ` +
      `longest word: ${longestWord.locale} (${longestWord.size} characters)`,
  );
  return { longestText: longestText.locale, longestWord: longestWord.locale };
}

async function show(state: FlowState, locale: string): Promise<IdVerifyElement> {
  const api = new FakeVerifyApi({ sandbox: true, tenant: { name: 'Acme Bank' } });
  const frame = await fixture<HTMLDivElement>(
    html`<div style="inline-size: ${PHONE_WIDTH}px">
      <id-verify locale=${locale} .api=${api} .pollInterval=${60_000}></id-verify>
    </div>`,
  );
  const el = frame.querySelector('id-verify') as IdVerifyElement;
  await until(() => el.state.phase !== 'loading', 3000, 'loaded');
  await until(
    () => el.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('lang') === locale,
    3000,
    'locale',
  );
  el.flow = state;
  await el.updateComplete;
  if (state.phase === 'step' && state.screen === 'liveness')
    await until(() => deep(el, 'idv-liveness-step'), 3000, 'liveness');
  const inner = screenOf(el);
  await inner.updateComplete;
  await new Promise((resolve) => setTimeout(resolve, 30));
  return el;
}

/** Every element of `root`, its shadow trees included. */
function* elementsOf(root: Element | ShadowRoot): Generator<Element> {
  for (const child of root.children) {
    yield child;
    if (child.shadowRoot) yield* elementsOf(child.shadowRoot);
    yield* elementsOf(child);
  }
}

/** Text for screen readers only (the 1 px clipped live region): clipped on purpose, not an overflow. */
function isVisuallyHidden(element: HTMLElement): boolean {
  return element.clientWidth <= 1 && getComputedStyle(element).overflow !== 'visible';
}

/** The elements a sighted user sees, skipping visually hidden subtrees. */
function* visibleElementsOf(root: Element | ShadowRoot): Generator<Element> {
  for (const child of root.children) {
    if (child instanceof HTMLElement && isVisuallyHidden(child)) continue;
    yield child;
    if (child.shadowRoot) yield* visibleElementsOf(child.shadowRoot);
    yield* visibleElementsOf(child);
  }
}

const TEXT_BOXES = new Set(['BUTTON', 'LABEL', 'A', 'LEGEND', 'SUMMARY', 'SELECT', 'OPTION']);

/** Boxes that show text: controls, and any laid-out element with text of its own. */
function isTextBox(element: Element): element is HTMLElement {
  if (!(element instanceof HTMLElement)) return false;
  const display = getComputedStyle(element).display;
  if (display === 'none' || display === 'contents' || display === 'inline') return false;
  if (TEXT_BOXES.has(element.tagName)) return true;
  return [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
}

/** What does not fit: text wider than its box, or a box sticking out of the widget. */
function overflows(el: IdVerifyElement): string[] {
  const base = el.shadowRoot?.querySelector('[part~="base"]') as HTMLElement;
  const frame = base.getBoundingClientRect();
  const found: string[] = [];
  const name = (e: HTMLElement) =>
    `<${e.tagName.toLowerCase()}${e.className ? ` class="${e.className}"` : ''}> “${e.textContent?.trim().slice(0, 60)}”`;
  if (base.scrollWidth > base.clientWidth + 1)
    found.push(`the widget scrolls sideways (${base.scrollWidth} px)`);
  for (const element of visibleElementsOf(el.shadowRoot as ShadowRoot)) {
    if (!isTextBox(element) || element.clientWidth === 0) continue;
    if (element.scrollWidth > element.clientWidth + 1)
      found.push(`${name(element)}: content ${element.scrollWidth} px in a ${element.clientWidth} px box`);
    const box = element.getBoundingClientRect();
    if (box.left < frame.left - 1 || box.right > frame.right + 1)
      found.push(
        `${name(element)}: outside the widget (${box.left}–${box.right} in ${frame.left}–${frame.right})`,
      );
  }
  return found;
}

describe('i18n at 320 px', () => {
  let locales: string[] = [];

  before(async function () {
    // Every locale's messages, each a module the test server compiles on its first request: over 10 s in
    // WebKit on a loaded 2-core runner.
    this.timeout(120_000);
    // Phone-sized media queries need the DevTools protocol; elsewhere the 320 px frame alone narrows it.
    if (engine === 'chromium') await setViewport({ width: PHONE_WIDTH, height: 640 });
    const { longestText, longestWord } = await riskiestLocales();
    locales = [...new Set([longestText, longestWord])];
  });

  after(async () => {
    if (engine === 'chromium') await setViewport({ width: 800, height: 600 });
  });

  it('picks a locale whose text is longer than English', () => {
    expect(locales).to.not.include('en');
  });

  for (const [name, state] of SCREENS) {
    it(`${name}: nothing overflows in the longest locales`, async () => {
      for (const locale of locales) {
        const el = await show(state, locale);
        expect(overflows(el), `${locale}, ${name}`).to.deep.equal([]);
      }
    });
  }

  it('the check sees an overflow when there is one', async () => {
    // The checker itself: an unbreakable word wider than the phone must be reported.
    const el = await show({ phase: 'result', status: 'approved', ctx }, 'en');
    const heading = [...elementsOf(el.shadowRoot as ShadowRoot)].find(
      (e) => e.tagName === 'H2' || e.tagName === 'H1',
    ) as HTMLElement;
    heading.textContent = 'W'.repeat(80);
    heading.style.overflowWrap = 'normal';
    heading.style.wordBreak = 'normal';
    expect(overflows(el).length).to.be.greaterThan(0);
  });
});

describe('accessibility (he, rtl)', () => {
  for (const [name, state] of SCREENS) {
    it(`${name} passes axe`, async () => {
      const el = await show(state, 'he');
      expect(isRtl('he')).to.equal(true);
      expect(el.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('dir')).to.equal('rtl');
      await expect(el).to.be.accessible();
    });
  }
});
