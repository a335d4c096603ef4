/**
 * Where the console opens (issue 25): a new tab of a tenant with no production session starts in
 * sandbox; a user's last choice is remembered per user across visits; the picker says how many sessions
 * wait for review in each environment.
 */
import { expect } from '@open-wc/testing';
import { until } from '../support/dom.ts';
import { FakeConsoleBackend } from './support/fake-console-backend.ts';
import { mountConsole, resetStorage } from './support/mount-console.ts';

const REVIEWER = 'usr_Review0000000000000001';

function picker(el: HTMLElement): HTMLSelectElement {
  return el.shadowRoot!.querySelector<HTMLSelectElement>('#environment')!;
}

describe('console environment choice', () => {
  afterEach(() => {
    resetStorage();
    localStorage.removeItem(`idv-console-environment-${REVIEWER}`);
  });

  it('starts a tenant without production sessions in sandbox', async () => {
    const backend = new FakeConsoleBackend();
    backend.scopeSessionsByEnvironment = true; // every fake session is a sandbox one
    const { el } = await mountConsole({
      role: 'reviewer',
      path: '/console/reviews',
      backend,
      environment: null,
    });
    await until(() => picker(el)?.value === 'sandbox', 4000, 'sandbox chosen');
    const asked = backend.requests.find((r) => r.path === '/v1/sessions' && r.query.get('limit') === '1');
    expect(asked?.headers.get('x-environment')).to.equal('production');
  });

  it("starts a tenant with production sessions in production, unless the user's last choice says otherwise", async () => {
    const backend = new FakeConsoleBackend();
    const { el } = await mountConsole({
      role: 'reviewer',
      path: '/console/reviews',
      backend,
      environment: null,
    });
    await until(
      () => backend.requests.some((r) => r.query.get('limit') === '1'),
      4000,
      'the look at production',
    );
    expect(picker(el).value).to.equal('production');

    const select = picker(el);
    select.value = 'sandbox';
    select.dispatchEvent(new Event('change'));
    expect(localStorage.getItem(`idv-console-environment-${REVIEWER}`)).to.equal('sandbox');

    // A new tab (mountConsole forgets the tab's choice) of the same user: their last environment, unasked.
    const again = await mountConsole({ role: 'reviewer', path: '/console/reviews', environment: null });
    await until(() => picker(again.el)?.value === 'sandbox', 4000, 'the remembered sandbox');
    expect(again.backend.requests.some((r) => r.query.get('limit') === '1')).to.equal(false);
  });

  it('shows how many sessions wait in each environment', async () => {
    const { el, backend } = await mountConsole({ role: 'reviewer', path: '/console/reviews' });
    await until(() => /waiting/.test(picker(el)?.textContent ?? ''), 4000, 'the counts');
    const options = [...picker(el).options].map((option) => option.textContent!.trim());
    expect(options).to.deep.equal(['Production · 3 waiting', 'Sandbox · 3 waiting']);
    const asked = backend.requests
      .filter((r) => r.path === '/v1/stats')
      .map((r) => r.headers.get('x-environment'));
    expect(asked).to.include.members(['production', 'sandbox']);
  });
});
