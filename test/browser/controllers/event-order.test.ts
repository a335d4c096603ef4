import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { deep, until } from '../support/dom.ts';
import { FakeVerifyApi } from '../support/fake-verify-api.ts';

/** Every public event, in the order the element fires them. */
const EVENTS = [
  'idv-ready',
  'idv-before-step-change',
  'idv-step-change',
  'idv-complete',
  'idv-exit',
  'idv-error',
  'idv-token-expired',
];

interface Seen {
  type: string;
  detail: Record<string, unknown>;
}

async function mount(api: FakeVerifyApi): Promise<{ el: IdVerifyElement; seen: Seen[] }> {
  const seen: Seen[] = [];
  const el = document.createElement('id-verify');
  for (const type of EVENTS)
    el.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }));
  el.locale = 'en';
  el.pollInterval = 20;
  el.api = api;
  await fixture(html`<div></div>`).then((host) => host.append(el));
  await until(() => el.state.phase !== 'loading', 4000, 'session load');
  await el.updateComplete;
  return { el, seen };
}

function click(root: Element | null | undefined, text: RegExp): void {
  const found = [...((root?.shadowRoot ?? root)?.querySelectorAll('button') ?? [])].find((b) =>
    text.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${text}`);
  found.click();
}

const types = (seen: Seen[]) => seen.map((e) => e.type);
/** The documented phases: ready (1), step changes (2), the end of the visit (3). */
function phaseOf(type: string): number {
  if (type === 'idv-ready') return 1;
  if (type === 'idv-before-step-change' || type === 'idv-step-change') return 2;
  return 3;
}

describe('event order: idv-ready, then step changes, then idv-complete / idv-exit / idv-error', () => {
  it('a whole visit: ready first, step changes, complete, exit last', async function () {
    this.timeout(10_000);
    const api = new FakeVerifyApi({
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'completed' },
      ],
    });
    const { el, seen } = await mount(api);
    click(deep(el, 'idv-review-step'), /Submit/);
    await until(() => types(seen).includes('idv-complete'), 4000, 'complete');
    await el.updateComplete;
    click(el, /Close/);
    await until(() => types(seen).includes('idv-exit'), 2000, 'exit');

    expect(types(seen)).to.deep.equal([
      'idv-ready',
      'idv-step-change',
      'idv-step-change',
      'idv-step-change',
      'idv-step-change',
      'idv-complete',
      'idv-exit',
    ]);
    expect(seen.slice(1, 5).map((e) => e.detail.to)).to.deep.equal([
      'review',
      'submitting',
      'result_processing',
      'result_approved',
    ]);
    const phases = types(seen).map(phaseOf);
    expect(phases).to.deep.equal([...phases].sort(), 'phases never go backwards');
  });

  it('asks before each later step change; a held change fires its idv-step-change on proceed()', async function () {
    this.timeout(10_000);
    const { el, seen } = await mount(new FakeVerifyApi());
    expect(types(seen)).to.deep.equal(['idv-ready', 'idv-step-change'], 'the first screen is not asked for');
    el.addEventListener('idv-before-step-change', (event) => event.preventDefault(), { once: true });
    const consent = await until(() => deep(el, 'idv-consent-step'), 2000, 'consent');
    deep<HTMLInputElement>(consent, '#agree')?.click();
    await (consent as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    click(consent, /Agree/);
    await until(() => types(seen).includes('idv-before-step-change'), 2000, 'asked');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(el.state).to.include({ screen: 'consent' });
    expect(types(seen).slice(2)).to.deep.equal(['idv-before-step-change']);
    el.proceed();
    expect(types(seen).slice(2)).to.deep.equal(['idv-before-step-change', 'idv-step-change']);
    expect(seen[3]?.detail).to.include({ from: 'consent', to: 'document_type' });
  });

  it('idv-ready once per token: a reload of the same token fires none', async function () {
    this.timeout(10_000);
    const api = new FakeVerifyApi({
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'completed' },
      ],
    });
    // The submit answers "steps incomplete": the element re-reads the session with the same token.
    api.failNext('complete', 409, 'steps_incomplete');
    const { el, seen } = await mount(api);
    click(deep(el, 'idv-review-step'), /Submit/);
    await until(() => api.calls.filter((c) => c.method === 'getSession').length >= 2, 3000, 'reload');
    await until(() => el.state.phase === 'step', 3000, 'back on review');
    expect(types(seen).filter((t) => t === 'idv-ready')).to.have.length(1);
    expect(types(seen)[0]).to.equal('idv-ready');
  });

  it('idv-ready again, first again, after a fresh link following idv-token-expired', async function () {
    this.timeout(10_000);
    const { el, seen } = await mount(new FakeVerifyApi());
    const stale = new FakeVerifyApi();
    stale.failNext('getSession', 401, 'token_expired');
    // The token expires in use: the next read is refused.
    el.api = stale;
    await until(() => types(seen).includes('idv-token-expired'), 3000, 'expired');
    const expiredAt = types(seen).indexOf('idv-token-expired');
    // The host mints a fresh link and hands it over.
    el.api = new FakeVerifyApi();
    await until(() => types(seen).lastIndexOf('idv-ready') > expiredAt, 3000, 'ready again');
    await until(() => el.state.phase === 'step', 3000, 'resumed');
    const visit = types(seen).slice(expiredAt + 1);
    expect(visit[0]).to.equal('idv-ready');
    expect(visit.filter((t) => t === 'idv-ready')).to.have.length(1);
    expect(visit.slice(1).every((t) => t === 'idv-step-change')).to.equal(true);
  });

  it('a visit that resumes with no attempts left: ready first, then the error, the final screen and complete', async function () {
    this.timeout(10_000);
    const { seen } = await mount(
      new FakeVerifyApi({
        status: 'rejected',
        steps: [
          { step: 'consent', status: 'completed' },
          { step: 'id_document', status: 'failed' as never, attempts_remaining: 0 },
        ],
      }),
    );
    await until(() => types(seen).includes('idv-complete'), 3000, 'complete');
    expect(types(seen)).to.deep.equal(['idv-ready', 'idv-error', 'idv-step-change', 'idv-complete']);
    expect(seen[1]?.detail).to.include({ code: 'attempts_exhausted', recoverable: false });
    expect(seen[3]?.detail).to.include({ status: 'rejected' });
  });

  it('a link refused on the first load: no idv-ready, the error, its screen, then idv-token-expired', async () => {
    const api = new FakeVerifyApi();
    api.failNext('getSession', 401, 'token_expired');
    const { seen } = await mount(api);
    expect(types(seen)).to.deep.equal(['idv-error', 'idv-step-change', 'idv-token-expired']);
  });
});
