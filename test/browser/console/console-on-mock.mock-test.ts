/**
 * The console against the real app: the mock (mock/) runs the server's own routes, store and PGlite in
 * this page, and the console's fetch seam calls it. This checks the console's reading of every response
 * shape (stats, users, audit events, deliveries …) against the code that produces them, which the fake
 * backend of the other suites only imitates. Run with the mock config:
 *   IDV_MOCK_TEST_FILES=test/browser/console/console-on-mock.mock-test.ts \
 *     npx web-test-runner --config test/browser/mock/web-test-runner.mock.config.mjs
 */
import { expect } from '@open-wc/testing';
import { createMockApi, type MockApi } from '../../../mock/index.ts';
import '../../../server/web/console/main.ts';
import type { IdvConsoleElement } from '../../../server/web/console/console-element.ts';
import type { MemoryHistory } from '../../../server/web/console/routing/history.ts';
import { matchRoute, splitHref } from '../../../server/web/console/routing/routes.ts';
import { until } from '../support/dom.ts';
import { resetStorage, screenOf, sharedConsole } from './support/mount-console.ts';

describe('the console on the real app (in-page mock)', () => {
  let mock: MockApi;
  let el: IdvConsoleElement;
  let history: MemoryHistory;
  let reviewId = '';

  async function tenantCall(method: string, path: string, body?: unknown) {
    const response = await mock.fetch(
      new Request(`${mock.origin}${path}`, {
        method,
        headers: {
          'x-api-key': mock.fixtures.sandboxKey,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    );
    return (await response.json()) as Record<string, unknown>;
  }

  /** Opens a page and waits for `ready` in its screen, failing on any error the screen shows. */
  async function visit(path: string, ready: string): Promise<ShadowRoot> {
    el.navigate(path);
    const { pathname, search } = splitHref(path);
    const tag = matchRoute(pathname, search)!.route.tag.toUpperCase();
    try {
      return await until(
        () => {
          const screen = screenOf(el);
          if (screen?.tagName !== tag) return null;
          const error = screen?.shadowRoot?.querySelector('.notice.bad');
          if (error) throw new Error(`${path}: ${error.textContent?.trim()}`);
          return screen?.shadowRoot?.querySelector(ready) ? screen.shadowRoot : null;
        },
        15_000,
        `${path} to show ${ready}`,
      );
    } catch (error) {
      const screen = screenOf(el);
      throw new Error(
        `${(error as Error).message}; at ${history.href}, showing ${screen?.tagName}: ${screen?.shadowRoot?.textContent?.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
    }
  }

  before(async function () {
    this.timeout(60_000);
    resetStorage();
    mock = await createMockApi({ background: false });
    const created = await tenantCall('POST', '/v1/sessions', {
      country: 'DEU',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: 'console-mock-1',
    });
    reviewId = String(created['session_id']);
    await tenantCall('POST', `/v1/sandbox/sessions/${reviewId}/simulate`, { action: 'review' });
    ({ el, history } = sharedConsole((input, init) =>
      mock.fetch(new Request(new URL(String(input), mock.origin), init)),
    ));
  });

  after(async () => {
    el?.remove();
    resetStorage();
    await mock?.close();
  });

  it('logs the fixture admin in and opens the dashboard with real statistics', async function () {
    this.timeout(20_000);
    const login = await until(() => screenOf(el)?.shadowRoot?.querySelector('form'), 8000, 'the login');
    (login.querySelector('#email') as HTMLInputElement).value = mock.fixtures.adminEmail;
    (login.querySelector('#password') as HTMLInputElement).value = mock.fixtures.adminPassword;
    login.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => history.href === '/console/dashboard', 8000, 'the dashboard');
    const root = await visit('/console/dashboard', 'svg[role=img]');
    expect(root.querySelectorAll('details tbody tr')).to.have.length(30);
    expect(root.querySelector('#card-queue')!.parentElement!.textContent).to.include('1');
  });

  it('lists the session, shows its detail, and decides it in the review queue', async function () {
    this.timeout(20_000);
    const list = await visit('/console/sessions', 'table');
    expect(list.textContent).to.include(reviewId);
    const detail = await visit(`/console/sessions/${reviewId}`, '#checks');
    expect(detail.textContent).to.include('Review required');
    const queue = await visit('/console/reviews', '#decision');
    expect(queue.querySelector('#current a')!.textContent).to.equal(reviewId);
    queue.querySelector<HTMLButtonElement>('#decision #approve')!.click();
    await until(
      () => /The queue is empty/.test(screenOf(el)?.shadowRoot?.textContent ?? ''),
      8000,
      'the queue emptied',
    );
    const result = await tenantCall('GET', `/v1/sessions/${reviewId}/result`);
    expect(result['decided_by']).to.equal('reviewer');
  });

  it('creates a webhook (secret once) and an API key, invites a colleague', async function () {
    this.timeout(20_000);
    const hooks = await visit('/console/webhooks', 'section[aria-labelledby=create] form');
    (hooks.querySelector('#new-url') as HTMLInputElement).value = 'http://127.0.0.1:9/hooks';
    (hooks.querySelector('#new-all') as HTMLInputElement).checked = true;
    hooks.querySelector<HTMLFormElement>('section[aria-labelledby=create] form')!.requestSubmit();
    const secret = await until(
      () => hooks.querySelector('idv-copy-field')?.shadowRoot?.querySelector('input')?.value,
      8000,
      'the secret',
    );
    expect(secret).to.match(/^whsec_/);

    const keys = await visit('/console/api-keys', 'section[aria-labelledby=create] form');
    (keys.querySelector('#name') as HTMLInputElement).value = 'console test';
    keys.querySelector<HTMLFormElement>('section[aria-labelledby=create] form')!.requestSubmit();
    const key = await until(
      () => keys.querySelector('idv-copy-field')?.shadowRoot?.querySelector('input')?.value,
      8000,
      'the key',
    );
    expect(key).to.match(/^sk_sandbox_/);

    const team = await visit('/console/team', 'table');
    (team.querySelector('#invite-email') as HTMLInputElement).value = 'colleague@mock.idv.test';
    team.querySelector<HTMLFormElement>('section[aria-labelledby=invite] form')!.requestSubmit();
    const link = await until(
      () => team.querySelector('idv-copy-field')?.shadowRoot?.querySelector('input')?.value,
      8000,
      'the link',
    );
    expect(link).to.match(/\/console\/accept-invitation#inv_/);
  });

  it('reads the identity, the settings and the audit log of all this', async function () {
    this.timeout(20_000);
    const identities = await visit('/console/identities', 'table');
    expect(identities.textContent).to.include('console-mock-1');
    const settings = await visit('/console/settings', '#watchlist');
    const tenant = await tenantCall('GET', '/v1/tenant');
    expect((settings.querySelector('#name') as HTMLInputElement).value).to.equal(tenant['name']);
    expect(settings.textContent).to.include('fictional sample list');
    const audit = await visit('/console/audit', 'table');
    for (const action of [
      'console.login',
      'session.review_approved',
      'webhook.created',
      'api_key.created',
      'user.invited',
    ]) {
      expect(audit.textContent).to.include(action);
    }
  });
});
