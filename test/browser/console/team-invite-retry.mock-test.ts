/**
 * An invitation whose answer is lost (issue 24): the server made the account and committed its answer
 * with it, but the console never got it (a crash, a dropped connection). Sent again, the same action
 * reuses its Idempotency-Key, so the console shows the invitation link the server made (replayed)
 * instead of 409 `email_in_use` for the account the first attempt created. Against the real app in the
 * page (the mock, mock/). Run with the mock config:
 *   IDV_MOCK_TEST_FILES=test/browser/console/team-invite-retry.mock-test.ts \
 *     npx web-test-runner --config test/browser/mock/web-test-runner.mock.config.mjs
 */
import { expect } from '@open-wc/testing';
import '../../../server/web/console/main.ts';
import { createMockApi, type MockApi } from '../../../mock/index.ts';
import type { IdvConsoleElement } from '../../../server/web/console/console-element.ts';
import type { MemoryHistory } from '../../../server/web/console/routing/history.ts';
import { until } from '../support/dom.ts';
import { resetStorage, screenOf, sharedConsole } from './support/mount-console.ts';

const COLLEAGUE = 'colleague@retry.idv.test';

describe('console team: an invitation whose answer was lost (in-page mock)', () => {
  let mock: MockApi;
  let el: IdvConsoleElement;
  let history: MemoryHistory;
  /** The requests to drop the answer of, after the server has handled them. */
  const loseAnswerOf = new Set<string>();
  const sentKeys: string[] = [];

  before(async function () {
    this.timeout(120_000);
    resetStorage();
    mock = await createMockApi({ background: false });
    ({ el, history } = sharedConsole(async (input, init) => {
      const request = new Request(new URL(String(input), mock.origin), init);
      const action = `${request.method} ${new URL(request.url).pathname}`;
      if (action === 'POST /v1/users') sentKeys.push(request.headers.get('idempotency-key') ?? '');
      const response = await mock.fetch(request);
      if (loseAnswerOf.delete(action)) throw new TypeError('Failed to fetch');
      return response;
    }));
    const login = await until(() => screenOf(el)?.shadowRoot?.querySelector('form'), 8000, 'the login');
    (login.querySelector('#email') as HTMLInputElement).value = mock.fixtures.adminEmail;
    (login.querySelector('#password') as HTMLInputElement).value = mock.fixtures.adminPassword;
    login.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => !history.href.startsWith('/console/login'), 15_000, 'logged in');
  });

  after(async () => {
    el?.remove();
    resetStorage();
    await mock?.close();
  });

  it('sent again, the invitation is replayed with its link, not refused as in use', async function () {
    this.timeout(30_000);
    el.navigate('/console/team');
    const team = await until(
      () => {
        const screen = screenOf(el);
        return screen?.tagName === 'IDV-TEAM-SCREEN' && screen.shadowRoot?.querySelector('#invite-email')
          ? screen.shadowRoot
          : null;
      },
      15_000,
      'the team page',
    );
    const send = () => {
      (team.querySelector('#invite-email') as HTMLInputElement).value = COLLEAGUE;
      (team.querySelector('#invite-role') as HTMLSelectElement).value = 'reviewer';
      (team.querySelector('#invite-email') as HTMLInputElement).form!.requestSubmit();
    };
    loseAnswerOf.add('POST /v1/users');
    send();
    await until(() => sentKeys.length === 1 && team.querySelector('.error, [role=alert]'), 8000, 'the error');
    expect(team.querySelector('idv-copy-field')).to.equal(null);

    send();
    const link = await until(
      () => team.querySelector('idv-copy-field')?.shadowRoot?.querySelector('input')?.value,
      8000,
      'the invitation link',
    );
    expect(sentKeys).to.have.length(2);
    expect(sentKeys[1], 'the same action, the same key').to.equal(sentKeys[0]);
    expect(team.textContent).not.to.include('already');
    const token = decodeURIComponent(link.split('#')[1] ?? '');
    expect(token).to.match(/^inv_/);
    // One account, and the replayed link's token is the one it holds.
    const rows = await mock.deps.db.query<{ count: number }>(
      'select count(*)::int as count from users where email = $1',
      [COLLEAGUE],
    );
    expect(rows[0]?.count).to.equal(1);
    const accepted = await mock.fetch(
      new Request(`${mock.origin}/v1/console/accept-invitation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ invitation_token: token, password: 'stapler orbit velvet canyon' }),
      }),
    );
    expect(accepted.status).to.equal(200);

    // A new invitation is a new action: a new key.
    send();
    await until(() => sentKeys.length === 3, 8000, 'the third request');
    expect(sentKeys[2]).not.to.equal(sentKeys[0]);
  });
});
