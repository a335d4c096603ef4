/**
 * The console's login for an e-mail address with accounts in several tenants (issue 24), against the real
 * app in the page (the mock, mock/): the same person was invited to two tenants and chose the same
 * password in both. A wrong password shows the one generic error and nothing about tenants; the right one
 * (proved by the server) shows the choice, named by tenant, and the choice logs in to that tenant only.
 * Run with the mock config:
 *   IDV_MOCK_TEST_FILES=test/browser/console/tenant-choice.mock-test.ts \
 *     npx web-test-runner --config test/browser/mock/web-test-runner.mock.config.mjs
 */
import { expect } from '@open-wc/testing';
import '../../../server/web/console/main.ts';
import { createMockApi, type MockApi } from '../../../mock/index.ts';
import { insertTenant } from '../../../server/store/tenants.ts';
import { insertUser } from '../../../server/store/users.ts';
import type { IdvConsoleElement } from '../../../server/web/console/console-element.ts';
import type { MemoryHistory } from '../../../server/web/console/routing/history.ts';
import { until } from '../support/dom.ts';
import { deepActiveElement, resetStorage, screenOf, sharedConsole } from './support/mount-console.ts';

const MEMBER = 'member@two-tenants.idv.test';
const PASSWORD = 'stapler orbit velvet canyon';

describe('console login: choosing the tenant of an e-mail in several (in-page mock)', () => {
  let mock: MockApi;
  let el: IdvConsoleElement;
  let history: MemoryHistory;
  let secondTenantId = '';

  function loginRoot(): ShadowRoot | null {
    const screen = screenOf(el);
    return screen?.tagName === 'IDV-LOGIN-SCREEN' ? (screen.shadowRoot ?? null) : null;
  }

  async function typeLogin(password: string): Promise<void> {
    const form = await until(() => loginRoot()?.querySelector('form'), 8000, 'the login form');
    (form.querySelector('#email') as HTMLInputElement).value = MEMBER;
    (form.querySelector('#password') as HTMLInputElement).value = password;
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
  }

  const choices = () => [
    ...(loginRoot()?.querySelectorAll<HTMLButtonElement>('button[data-tenant-id]') ?? []),
  ];

  before(async function () {
    this.timeout(90_000);
    resetStorage();
    mock = await createMockApi({ background: false });
    // Written straight to the store: what invitations make (test/node/users/cross-tenant-email.test.ts
    // goes through them), with one Argon2 hash, which a busy runner's WebKit computes slowly.
    const { db, clock, passwords, ids } = mock.deps;
    const now = clock.now();
    const passwordHash = await passwords.hash(PASSWORD);
    secondTenantId = ids('ten');
    await insertTenant(db, { id: secondTenantId, name: 'Second Tenant', now });
    await insertUser(db, {
      id: ids('usr'),
      tenantId: mock.fixtures.tenantId,
      email: MEMBER,
      passwordHash,
      role: 'viewer',
      now,
    });
    await insertUser(db, {
      id: ids('usr'),
      tenantId: secondTenantId,
      email: MEMBER,
      passwordHash,
      role: 'reviewer',
      now,
    });
    ({ el, history } = sharedConsole((input, init) =>
      mock.fetch(new Request(new URL(String(input), mock.origin), init)),
    ));
  });

  after(async () => {
    el?.remove();
    resetStorage();
    await mock?.close();
  });

  it('a wrong password shows the generic error and no tenant', async function () {
    this.timeout(20_000);
    await typeLogin('not the password at all');
    const alert = await until(() => loginRoot()?.querySelector('#login-error'), 8000, 'the error');
    expect(alert.textContent).to.equal('The e-mail or password is incorrect.');
    expect(choices()).to.have.length(0);
    expect(loginRoot()?.textContent).not.to.include('Second Tenant');
    expect(loginRoot()?.textContent).not.to.include('Mock Tenant');
  });

  it('the proved password offers both tenants by name; back returns to the form', async function () {
    this.timeout(20_000);
    await typeLogin(PASSWORD);
    await until(() => (choices().length === 2 ? choices() : null), 8000, 'the tenant choice');
    expect(loginRoot()?.querySelector('h1')?.textContent).to.equal('Choose a tenant');
    await until(() => deepActiveElement()?.tagName === 'H1', 2000, 'focus on the heading');
    expect(choices().map((button) => button.textContent?.trim())).to.have.members([
      'Mock Tenant',
      'Second Tenant',
    ]);
    await expect(el).to.be.accessible();
    loginRoot()!.querySelector<HTMLButtonElement>('#start-over')!.click();
    await until(() => loginRoot()?.querySelector('form #password'), 4000, 'the form again');
    expect(choices()).to.have.length(0);
    expect(history.href).to.equal('/console/login');
  });

  it('offers the choice in Arabic, right to left, accessibly', async function () {
    this.timeout(20_000);
    await typeLogin(PASSWORD);
    await until(() => (choices().length === 2 ? choices() : null), 8000, 'the tenant choice');
    el.setAttribute('locale', 'ar');
    try {
      await until(
        () => loginRoot()?.querySelector('h1')?.textContent === 'اختر المستأجر',
        4000,
        'the Arabic heading',
      );
      expect(choices()).to.have.length(2);
      await expect(el).to.be.accessible();
    } finally {
      el.setAttribute('locale', 'en');
    }
    await until(() => loginRoot()?.querySelector('h1')?.textContent === 'Choose a tenant', 4000, 'English');
    loginRoot()!.querySelector<HTMLButtonElement>('#start-over')!.click();
    await until(() => loginRoot()?.querySelector('form #password'), 4000, 'the form again');
  });

  it('choosing a tenant logs in to that tenant only', async function () {
    this.timeout(20_000);
    await typeLogin(PASSWORD);
    const second = await until(
      () => choices().find((button) => button.dataset['tenantId'] === secondTenantId),
      8000,
      'the second tenant',
    );
    second.click();
    await until(() => !history.href.startsWith('/console/login'), 8000, 'logged in');
    const stored = JSON.parse(sessionStorage.getItem('idv-console-token') ?? '{}') as { token?: string };
    const me = await mock.fetch(
      new Request(`${mock.origin}/v1/me`, { headers: { authorization: `Bearer ${stored.token}` } }),
    );
    const body = (await me.json()) as { user?: { tenant_id?: string; role?: string; email?: string } };
    expect(body.user?.tenant_id).to.equal(secondTenantId);
    expect(body.user?.role).to.equal('reviewer');
  });
});
