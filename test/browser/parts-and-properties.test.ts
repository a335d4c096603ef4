import { expect, fixture, html } from '@open-wc/testing';
import '../../src/id-verify.ts';
import type { SessionView } from '../../src/api/verify-api.ts';
import type { IdVerifyElement } from '../../src/id-verify-element.ts';
import type { FlowContext, FlowState } from '../../src/flow/flow-types.ts';
import { CSS_PROPERTY_NAMES, PART_NAMES } from '../node/widget/styling-surface.ts';
import { chooseFile, deep, until } from './support/dom.ts';
import { FakeVerifyApi, photoFile } from './support/fake-verify-api.ts';

/**
 * Every CSS part and custom property `<id-verify>` documents (the manifest's list, which
 * test/node/widget/manifest-docs.test.ts holds equal to styling-surface.ts) is styled from the page,
 * and the element it names must change its computed style. A part is looked up the way the browser
 * resolves `::part()`: `part` attributes in the element's shadow root, then through each inner
 * element's `exportparts`, so a part whose export chain is broken finds nothing and fails.
 */

const ctx: FlowContext = {
  steps: ['consent', 'id_document', 'proof_of_address'],
  completed: [],
  documentTypes: ['passport', 'id_card'],
  documentType: 'id_card',
  captureMode: 'camera',
  cameraIssue: null,
  sandbox: true,
};

type Scene = (el: IdVerifyElement, api: FakeVerifyApi) => Promise<void>;

async function showState(el: IdVerifyElement, state: FlowState): Promise<void> {
  el.flow = state;
  await el.updateComplete;
  const screen = el.shadowRoot?.querySelector('[part~="body"]')?.firstElementChild as
    | (Element & { updateComplete?: Promise<unknown> })
    | null;
  await screen?.updateComplete;
}

const review: Scene = (el) => showState(el, { phase: 'step', screen: 'review', ctx });
const documentType: Scene = (el) => showState(el, { phase: 'step', screen: 'document_type', ctx });
const documentFront: Scene = (el) => showState(el, { phase: 'step', screen: 'document_front', ctx });
const handoff: Scene = async (el) => {
  await documentFront(el, undefined as never);
  clickIn(el, /phone/);
  await until(() => deep(el, 'idv-handoff-view', 'svg, .error'), 3000, 'handoff view');
};
/** The proof-of-address screen of a session where one attempt already failed there. */
const proofOfAddress: Scene = async (el) => {
  await until(() => deep(el, 'idv-upload-step', 'idv-capture-view'), 3000, 'upload step');
};
const uploadCamera: Scene = async (el) => {
  await proofOfAddress(el, undefined as never);
  const view = deep(el, 'idv-upload-step', 'idv-capture-view') as Element;
  clickIn(view, /camera/i);
  await until(() => view.shadowRoot?.querySelector('video'), 3000, 'camera mode');
};
const uploadPreview: Scene = async (el) => {
  await proofOfAddress(el, undefined as never);
  const input = await until(
    () => deep<HTMLInputElement>(el, 'idv-upload-step', 'idv-capture-view', 'input[type=file]'),
    3000,
    'file input',
  );
  chooseFile(input, photoFile());
  await until(() => deep(el, 'idv-upload-step', 'idv-capture-view', 'img'), 3000, 'preview');
};

function clickIn(root: Element, text: RegExp): void {
  const button = [...(root.shadowRoot?.querySelectorAll('button') ?? [])].find((b) =>
    text.test(b.textContent ?? ''),
  );
  if (!button) throw new Error(`no button ${text}`);
  button.click();
}

/** The session each scene starts from: sandbox (banner, outcome picker) and, for proof of address, one failed attempt. */
function sessionFor(scene: Scene): Partial<SessionView> {
  if (scene === proofOfAddress || scene === uploadCamera || scene === uploadPreview) {
    return {
      sandbox: true,
      // As the server sends it: consent first (never spending an attempt), then the step with one spent.
      required_steps: ['consent', 'proof_of_address'],
      steps: [
        { step: 'consent', status: 'completed', attempts_remaining: 3 },
        { step: 'proof_of_address', status: 'pending', attempts_remaining: 2 },
      ],
    };
  }
  return { sandbox: true };
}

async function mount(scene: Scene, failHandoff = false): Promise<IdVerifyElement> {
  const api = new FakeVerifyApi(sessionFor(scene));
  if (failHandoff) api.failNext('createHandoff', 500, 'internal_error');
  const el = await fixture<IdVerifyElement>(
    html`<id-verify locale="en" .api=${api} .pollInterval=${60_000}></id-verify>`,
  );
  await until(() => el.state.phase !== 'loading', 3000, 'loaded');
  await scene(el, api);
  return el;
}

/** The elements `id-verify::part(name)` matches, found by following `part` and `exportparts`. */
function partTargets(host: Element, name: string): Element[] {
  const root = host.shadowRoot;
  if (!root) return [];
  const found = [...root.querySelectorAll(`[part~="${name}"]`)];
  for (const inner of root.querySelectorAll('[exportparts]')) {
    for (const mapping of (inner.getAttribute('exportparts') ?? '').split(',')) {
      const [innerName, outerName = innerName] = mapping.split(':').map((part) => part.trim());
      if (outerName === name && innerName) found.push(...partTargets(inner, innerName));
    }
  }
  return found;
}

/** A page stylesheet for the test, removed after it. */
function pageStyle(cssText: string): () => void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(cssText);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return () => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}

/** Where each part is shown. */
const PART_SCENES: Record<string, Scene> = {
  base: review,
  'sandbox-banner': review,
  header: review,
  progress: review,
  attempts: proofOfAddress,
  body: review,
  button: review,
  primary: review,
  handoff: documentFront,
  choice: documentType,
  video: uploadCamera,
  shutter: uploadCamera,
  preview: uploadPreview,
  qr: handoff,
  'sandbox-outcome': review,
};

interface PropertyProbe {
  scene: Scene;
  failHandoff?: boolean;
  /** The element the property claims to style, and which computed style shows it. */
  target: (el: IdVerifyElement) => Element | null | undefined;
  value: string;
  read: (style: CSSStyleDeclaration) => string;
  expected: string;
  /** A pseudo-element (`::before`) when that is what the property styles. */
  pseudo?: string;
  /** Focus the target with keyboard-visible focus first. */
  focus?: boolean;
}

const RGB = 'rgb(1, 2, 3)';
const first = (el: IdVerifyElement, part: string) => partTargets(el, part)[0];

const PROPERTY_PROBES: Record<string, PropertyProbe> = {
  '--idv-color-primary': {
    scene: review,
    target: (el) => first(el, 'primary'),
    value: RGB,
    read: (s) => s.backgroundColor,
    expected: RGB,
  },
  '--idv-color-on-primary': {
    scene: review,
    target: (el) => first(el, 'primary'),
    value: RGB,
    read: (s) => s.color,
    expected: RGB,
  },
  '--idv-color-primary-text': {
    scene: documentFront,
    target: (el) => first(el, 'handoff'),
    value: RGB,
    read: (s) => s.color,
    expected: RGB,
  },
  '--idv-color-background': {
    scene: review,
    target: (el) => el,
    value: RGB,
    read: (s) => s.backgroundColor,
    expected: RGB,
  },
  '--idv-color-surface': {
    scene: review,
    target: (el) => first(el, 'sandbox-outcome')?.querySelector('select'),
    value: RGB,
    read: (s) => s.backgroundColor,
    expected: RGB,
  },
  '--idv-color-text': { scene: review, target: (el) => el, value: RGB, read: (s) => s.color, expected: RGB },
  '--idv-color-muted': {
    scene: review,
    target: (el) => first(el, 'progress'),
    value: RGB,
    read: (s) => s.color,
    expected: RGB,
  },
  '--idv-color-border': {
    scene: review,
    target: (el) => first(el, 'sandbox-outcome')?.querySelector('select'),
    value: RGB,
    read: (s) => s.borderTopColor,
    expected: RGB,
  },
  '--idv-color-danger': {
    scene: handoff,
    failHandoff: true,
    target: (el) => deep(el, 'idv-handoff-view', '.error'),
    value: RGB,
    read: (s) => s.color,
    expected: RGB,
  },
  '--idv-color-success': {
    scene: review,
    target: (el) => deep(el, 'idv-review-step', 'ul.done li'),
    pseudo: '::before',
    value: RGB,
    read: (s) => s.color,
    expected: RGB,
  },
  '--idv-color-banner': {
    scene: review,
    target: (el) => first(el, 'sandbox-banner'),
    value: RGB,
    read: (s) => s.backgroundColor,
    expected: RGB,
  },
  '--idv-color-on-banner': {
    scene: review,
    target: (el) => first(el, 'sandbox-banner'),
    value: RGB,
    read: (s) => s.color,
    expected: RGB,
  },
  '--idv-font-family': {
    scene: review,
    target: (el) => first(el, 'primary'),
    value: 'monospace',
    read: (s) => s.fontFamily,
    expected: 'monospace',
  },
  '--idv-radius': {
    scene: review,
    target: (el) => first(el, 'primary'),
    value: '7px',
    read: (s) => s.borderTopLeftRadius,
    expected: '7px',
  },
  '--idv-focus-ring': {
    scene: review,
    target: (el) => first(el, 'primary'),
    focus: true,
    value: `5px dashed ${RGB}`,
    read: (s) => `${s.outlineWidth} ${s.outlineStyle} ${s.outlineColor}`,
    expected: `5px dashed ${RGB}`,
  },
};

describe('styling <id-verify> from the page', () => {
  it('has a browser check for every documented part and custom property', () => {
    expect(Object.keys(PART_SCENES).sort()).to.deep.equal([...PART_NAMES].sort());
    expect(Object.keys(PROPERTY_PROBES).sort()).to.deep.equal([...CSS_PROPERTY_NAMES].sort());
  });

  describe('::part()', () => {
    for (const part of PART_NAMES) {
      it(`id-verify::part(${part}) styles the element that carries it`, async function () {
        this.timeout(10_000);
        const scene = PART_SCENES[part];
        if (!scene) throw new Error(`no scene for part ${part}`);
        const el = await mount(scene);
        const targets = partTargets(el, part);
        expect(targets.length, `no element carries part "${part}" on its screen`).to.be.greaterThan(0);
        const before = targets.map((target) => getComputedStyle(target).outlineOffset);
        expect(before).to.not.include('13px');
        const remove = pageStyle(`id-verify::part(${part}) { outline-offset: 13px; }`);
        try {
          for (const target of targets) {
            expect(getComputedStyle(target).outlineOffset, `${target.localName}[part~=${part}]`).to.equal(
              '13px',
            );
          }
        } finally {
          remove();
        }
      });
    }
  });

  describe('CSS custom properties', () => {
    for (const name of CSS_PROPERTY_NAMES) {
      it(`${name} set on id-verify changes what it styles`, async function () {
        this.timeout(10_000);
        const probe = PROPERTY_PROBES[name];
        if (!probe) throw new Error(`no probe for ${name}`);
        const el = await mount(probe.scene, probe.failHandoff);
        const target = await until(() => probe.target(el), 3000, `the element ${name} styles`);
        if (probe.focus) {
          (target as HTMLElement).focus();
          expect(target.matches(':focus-visible'), 'keyboard-visible focus').to.equal(true);
        }
        const read = () => probe.read(getComputedStyle(target, probe.pseudo ?? null));
        const before = read();
        expect(before).to.not.equal(probe.expected);
        const remove = pageStyle(`id-verify { ${name}: ${probe.value}; }`);
        try {
          expect(read()).to.equal(probe.expected);
        } finally {
          remove();
        }
      });
    }
  });
});
