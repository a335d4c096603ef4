import { expect } from '@open-wc/testing';
import type { Schemas } from '../../../server/web/console/api/console-api.ts';
import { chooseFile, until } from '../support/dom.ts';
import { PASSWORD } from './support/fake-console-backend.ts';
import { mountConsole, resetStorage, screenOf, screenShows, settled } from './support/mount-console.ts';

type Session = Schemas['Session'];

function root(el: HTMLElement): ShadowRoot {
  return screenOf(el as never)!.shadowRoot!;
}

function button(el: HTMLElement, label: string | RegExp): HTMLButtonElement {
  const found = [...root(el).querySelectorAll<HTMLButtonElement>('button')].find((b) =>
    typeof label === 'string' ? b.textContent?.trim() === label : label.test(b.textContent ?? ''),
  );
  if (!found) throw new Error(`no button ${String(label)}`);
  return found;
}

function setValue(el: HTMLElement, selector: string, value: string): void {
  const field = root(el).querySelector<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(selector)!;
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function submit(el: HTMLElement, selector: string): void {
  root(el).querySelector<HTMLFormElement>(selector)!.requestSubmit();
}

/** The value of the copy field on the screen (a secret shown once, or a link). */
async function copyValue(el: HTMLElement): Promise<string> {
  const field = await until(() => root(el).querySelector('idv-copy-field'), 4000, 'the copy field');
  await (field as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  return field.shadowRoot!.querySelector('input')!.value;
}

describe('console screens', () => {
  afterEach(() => resetStorage());

  it('dashboard: cards, a hand-drawn chart with its numbers, and the queue', async () => {
    const { el } = await mountConsole({ role: 'tenant_admin', path: '/console/dashboard' });
    await screenShows(el, 'Approval rate');
    const text = root(el).textContent!;
    expect(text).to.include('76.9%');
    expect(text).to.include('150');
    expect(text).to.include('1.6 min');
    expect(root(el).querySelectorAll('svg[role=img] rect.bar').length).to.be.greaterThan(20);
    expect(root(el).querySelectorAll('details table tbody tr')).to.have.length(30);
    expect(root(el).querySelector('#chart-summary')!.textContent).to.match(/last 30 days: \d+ created/);
    const queueLink = root(el).querySelector<HTMLAnchorElement>('a[href="/console/reviews"]');
    expect(queueLink?.textContent).to.equal('Open the review queue');
  });

  it('sessions: filters go into the URL and the request; cursors page through', async function () {
    // Firefox on a busy 2-core CI runner was seen taking over 4 s to render a page of 20 rows.
    this.timeout(40_000);
    const { el, backend, history } = await mountConsole({ role: 'developer', path: '/console/sessions' });
    const base = backend.sessions[0]!;
    for (let i = 0; i < 25; i += 1) {
      backend.sessions.push({
        ...base,
        session_id: `sess_Extra${String(i).padStart(14, '0')}`,
        status: 'expired',
      } as Session);
    }
    setValue(el, '#f-status', 'expired');
    setValue(el, '#f-country', 'deu');
    setValue(el, '#f-from', '2024-01-02');
    submit(el, 'form');
    await until(() => history.href.startsWith('/console/sessions?status=expired'), 4000, 'the filter URL');
    const last = () => backend.requests.filter((r) => r.path === '/v1/sessions').at(-1)!;
    await until(() => last().query.get('status') === 'expired', 4000, 'the filtered request');
    expect(last().query.get('country')).to.equal('DEU');
    expect(last().query.get('created_gte')).to.equal('2024-01-02T00:00:00.000Z');
    await until(() => root(el).querySelectorAll('tbody tr').length === 20, 10_000, 'a full page');
    expect(button(el, 'Newer').disabled).to.equal(true);
    button(el, 'Older').click();
    await until(
      () => last().query.get('starting_after') === 'sess_Extra00000000000019',
      4000,
      'the next page',
    );
    await until(() => root(el).querySelectorAll('tbody tr').length === 5, 10_000, 'the rest');
    expect(button(el, 'Older').disabled).to.equal(true);
    button(el, 'Newer').click();
    await until(() => last().query.get('ending_before') === 'sess_Extra00000000000020', 4000, 'back');
    expect(history.href).to.include('status=expired');
  });

  it('session detail: steps, checks with details and reason codes, timeline, deliveries', async () => {
    const { el } = await mountConsole({
      role: 'tenant_admin',
      path: '/console/sessions/sess_Rejected000000000001',
    });
    await until(() => root(el).querySelector('#deliveries'), 4000, 'the deliveries');
    const text = root(el).textContent!;
    expect(text).to.include('Identity document');
    expect(text).to.include('Attempts left: 2');
    expect(text).to.include('Liveness failed');
    expect(text).to.include('liveness_failed');
    expect(text).to.include('distance');
    expect(text).to.include('document_tampered');
  });

  it('session detail: a check decided in zones shows its zone in words, the reason and the score against the limits', async function () {
    this.timeout(30_000);
    /** The checks' rows by check label: the zone facts of each, and the names of its other details. */
    const checkRows = (el: HTMLElement) =>
      new Map(
        [...root(el).querySelectorAll('section[aria-labelledby=checks] tbody tr')].map((row) => [
          row.querySelector('th')!.textContent!.trim(),
          row,
        ]),
      );
    const factsOf = (row: Element) =>
      Object.fromEntries(
        [...row.querySelectorAll('dl.facts dt')].map((dt) => [
          dt.textContent!.trim(),
          dt.nextElementSibling as HTMLElement,
        ]),
      );

    const { el } = await mountConsole({
      role: 'tenant_admin',
      path: '/console/sessions/sess_Review00000000000001',
    });
    await until(() => checkRows(el).get('Face match'), 4000, 'the face-match check');
    const face = factsOf(checkRows(el).get('Face match')!);
    const zoneBadge = face.Zone!.querySelector('.badge')!;
    expect(zoneBadge.textContent!.trim(), 'the zone in words, not colour alone').to.equal('Uncertain');
    expect(zoneBadge.classList.contains('tone-wait')).to.equal(true);
    expect(face.Why!.textContent).to.include('between the match limit 0.55 and the mismatch limit 0.62');
    expect(face.Why!.getAttribute('lang'), "the API's sentence is English").to.equal('en');
    expect(face['Score and limits']!.textContent!.trim()).to.equal(
      '0.5712 (match limit 0.55, mismatch limit 0.62)',
    );
    // Shown once, as facts: not repeated by their raw names below; the other details still are.
    expect(Object.keys(face)).to.not.include.members(['zone', 'zone_reason', 'thresholds']);
    expect(Object.keys(face)).to.include.members(['score', 'probes_compared']);
    const liveness = factsOf(checkRows(el).get('Liveness')!);
    expect(liveness.Zone!.textContent!.trim()).to.equal('Live');
    expect(liveness.Why!.textContent).to.include('Every prompted action was performed');
    expect(liveness['Score and limits'], 'no score or limits: no such row').to.equal(undefined);

    // An approved session's flat `match_threshold` / `mismatch_threshold`, in German.
    resetStorage();
    const german = await mountConsole({
      role: 'tenant_admin',
      locale: 'de',
      path: '/console/sessions/sess_Approved000000000001',
    });
    await until(() => checkRows(german.el).get('Gesichtsabgleich'), 4000, 'the German face-match check');
    const match = factsOf(checkRows(german.el).get('Gesichtsabgleich')!);
    expect(match.Zone!.textContent!.trim()).to.equal('Übereinstimmung');
    expect(match['Wert und Grenzen']!.textContent!.trim()).to.equal(
      '0,41 (Grenze Übereinstimmung 0,55, Grenze Abweichung 0,62)',
    );

    // A session decided before checks carried zones: its details as they were, no zone rows.
    resetStorage();
    const older = await mountConsole({
      role: 'tenant_admin',
      path: '/console/sessions/sess_Rejected000000000001',
    });
    await until(() => checkRows(older.el).get('Face match'), 4000, 'the older face-match check');
    const plain = factsOf(checkRows(older.el).get('Face match')!);
    expect(Object.keys(plain)).to.deep.equal(['distance', 'threshold']);
    expect(checkRows(older.el).get('Face match')!.querySelector('dl .badge')).to.equal(null);
  });

  it('session detail: the timeline lists its events and the deliveries they caused', async () => {
    const { el, backend } = await mountConsole({
      role: 'tenant_admin',
      path: '/console/sessions/sess_Approved000000000001',
    });
    await until(() => root(el).querySelector('#deliveries'), 4000, 'the deliveries');
    const timeline = [...root(el).querySelectorAll('ol li code')].map((code) => code.textContent);
    expect(timeline).to.deep.equal(['session.created', 'session.approved']);
    const deliveries = root(el).querySelector('section[aria-labelledby=deliveries] tbody')!.textContent!;
    expect(deliveries).to.include('session.approved');
    expect(deliveries).to.include('https://tenant.test/hooks');
    expect(backend.requests.some((r) => r.query.get('event_id') === 'evt_Fake00000000000000002')).to.equal(
      true,
    );
  });

  it('session detail: cancelling asks first, then cancels', async () => {
    const { el, backend } = await mountConsole({
      role: 'developer',
      path: '/console/sessions/sess_Collecting0000000001',
    });
    await until(() => root(el).querySelector('#steps'), 4000, 'the session');
    button(el, 'Cancel session').click();
    await settled(el);
    expect(backend.writes()).to.deep.equal([]);
    button(el, 'Confirm').click();
    await screenShows(el, 'The session is cancelled.');
    expect(backend.writes()).to.deep.equal(['DELETE /v1/sessions/sess_Collecting0000000001']);
  });

  it('webhooks: the secret of a new endpoint is shown once, with a copy button', async () => {
    const { el, backend } = await mountConsole({ role: 'developer', path: '/console/webhooks' });
    await until(() => root(el).querySelector('table'), 4000, 'the list');
    setValue(el, '#new-url', 'https://tenant.test/new-hook');
    root(el).querySelector<HTMLInputElement>('#new-session\\.approved')!.checked = true;
    submit(el, 'section[aria-labelledby=create] form');
    expect(await copyValue(el)).to.match(/^whsec_/);
    const post = backend.requests.find((r) => r.method === 'POST' && r.path === '/v1/webhooks')!;
    expect(post.body).to.deep.equal({ url: 'https://tenant.test/new-hook', events: ['session.approved'] });
    expect(post.headers.get('idempotency-key')).to.match(/^[0-9a-f-]{36}$/);
    expect(
      root(el).querySelector('idv-copy-field')!.shadowRoot!.querySelector('button')!.textContent,
    ).to.equal('Copy');
    el.navigate('/console/webhooks/wh_Fake00000000000000001');
    await until(() => screenOf(el)?.tagName === 'IDV-WEBHOOK-DETAIL-SCREEN', 4000, 'the endpoint page');
    el.navigate('/console/webhooks');
    await until(
      () => screenOf(el)?.tagName === 'IDV-WEBHOOKS-SCREEN' && root(el).querySelector('table'),
      4000,
      'the list again',
    );
    expect(root(el).querySelector('idv-copy-field') === null).to.equal(
      true,
      'the secret is never shown again',
    );
  });

  it('webhook detail: test, disable, rotate (shown once), retry a delivery, attempts listed', async () => {
    const { el, backend } = await mountConsole({
      role: 'developer',
      path: '/console/webhooks/wh_Fake00000000000000001',
    });
    await until(() => root(el).querySelector('section[aria-labelledby=log] tbody'), 4000, 'the log');
    expect(root(el).querySelectorAll('section[aria-labelledby=log] details tbody tr')).to.have.length(3);
    button(el, 'Send test event').click();
    await screenShows(el, 'The endpoint answered with an HTTP 2xx status.');
    button(el, /Retry now/).click();
    await screenShows(el, 'Queued: the delivery is attempted again');
    expect(backend.writes()).to.include(
      'POST /v1/webhooks/wh_Fake00000000000000001/deliveries/dlv_Fake00000000000000002/retry',
    );
    button(el, 'Rotate secret').click();
    await settled(el);
    button(el, 'Confirm').click();
    expect(await copyValue(el)).to.match(/^whsec_ROTATED/);
    await screenShows(el, 'The previous secret also signs until');
    button(el, 'Disable').click();
    await until(() => root(el).textContent?.includes('Enable'), 4000, 'disabled');
    const patch = backend.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.body).to.deep.equal({ status: 'disabled' });
  });

  it('API keys: created once with its secret, revoked after confirming; developers get sandbox only', async () => {
    const { el, backend } = await mountConsole({ role: 'developer', path: '/console/api-keys' });
    await until(() => root(el).querySelector('table'), 4000, 'the keys');
    const options = [...root(el).querySelectorAll<HTMLOptionElement>('#environment option')].map(
      (o) => o.value,
    );
    expect(options).to.deep.equal(['sandbox']);
    expect(root(el).textContent).to.include('Only tenant admins can create production keys.');
    expect(root(el).textContent).to.include('sk_sandbox_Ab3dE9xY…q7Zp');
    setValue(el, '#name', 'CI');
    submit(el, 'section[aria-labelledby=create] form');
    expect(await copyValue(el)).to.match(/^sk_sandbox_Zz9yX8wV/);
    await until(() => root(el).querySelectorAll('tbody tr').length === 2, 4000, 'the new key listed');
    button(el, /^Revoke/).click();
    await settled(el);
    button(el, 'Confirm').click();
    await until(
      () => backend.writes().some((w) => w.startsWith('DELETE /v1/api-keys/')),
      4000,
      'the revocation',
    );
    await screenShows(el, 'Revoked');
  });

  it('team: an invitation is a one-time link with the token in the fragment; roles change; users are disabled', async () => {
    const { el, backend } = await mountConsole({ role: 'tenant_admin', path: '/console/team' });
    await until(() => root(el).querySelector('tbody'), 4000, 'the team');
    setValue(el, '#invite-email', 'colleague@tenant.test');
    setValue(el, '#invite-role', 'reviewer');
    submit(el, 'section[aria-labelledby=invite] form');
    expect(await copyValue(el)).to.equal(`${location.origin}/console/accept-invitation#inv_NEWtokenNEWtoken`);
    expect(backend.requests.find((r) => r.path === '/v1/users' && r.method === 'POST')!.body).to.deep.equal({
      email: 'colleague@tenant.test',
      role: 'reviewer',
    });
    /** The row of a user, by the e-mail its header cell starts with ('reviewer@' contains 'viewer@'). */
    const rowOf = (email: string) =>
      [...root(el).querySelectorAll('tbody tr')].find((row) =>
        row.querySelector('th')?.textContent?.trim().startsWith(email),
      )!;
    const viewerRow = rowOf('viewer@tenant.test');
    const select = viewerRow.querySelector('select')!;
    select.value = 'developer';
    viewerRow.querySelector('form')!.requestSubmit();
    await screenShows(el, 'Role changed.');
    expect(backend.users.find((u) => u.email === 'viewer@tenant.test')!.role).to.equal('developer');
    // The screen is busy until the role change has settled; its buttons are disabled meanwhile.
    const disable = await until(
      () =>
        [...rowOf('viewer@tenant.test').querySelectorAll('button')].find(
          (b) => b.textContent === 'Disable' && !b.disabled,
        ),
      4000,
      'an enabled Disable button',
    );
    disable.click();
    await until(
      () => backend.users.find((u) => u.email === 'viewer@tenant.test')!.status === 'disabled',
      4000,
      'disabled',
    );
    const adminRow = rowOf('admin@tenant.test');
    expect(adminRow.textContent).to.include('(you)');
    expect([...adminRow.querySelectorAll('button')].some((b) => b.textContent === 'Disable')).to.equal(false);
  });

  it('accept invitation: the token is read from the fragment, dropped from the address, and used once', async () => {
    const { el, backend, history } = await mountConsole({ path: '/console/accept-invitation#inv_Valid' });
    await until(() => history.href === '/console/accept-invitation', 4000, 'the fragment dropped');
    setValue(el, '#password', 'short');
    setValue(el, '#repeat', 'short');
    submit(el, 'form');
    await screenShows(el, 'Use at least 15 characters.');
    setValue(el, '#password', PASSWORD);
    setValue(el, '#repeat', PASSWORD);
    submit(el, 'form');
    await screenShows(el, 'Your password is set.');
    expect(backend.requests.at(-1)!.body).to.deep.equal({
      invitation_token: 'inv_Valid',
      password: PASSWORD,
    });
  });

  it('settings: sends only what changed; a CSV watchlist replaces the list', async () => {
    const { el, backend } = await mountConsole({ role: 'tenant_admin', path: '/console/settings' });
    await until(() => root(el).querySelector('#watchlist'), 4000, 'the settings');
    expect(root(el).textContent).to.include('fictional sample list');
    setValue(el, '#minimum_age', '21');
    setValue(el, '#attempts_per_step', '5');
    setValue(el, '#allowed_origins', 'https://shop.test\nhttps://app.test');
    root(el).querySelector<HTMLInputElement>('#auth-manual_review')!.checked = true;
    submit(el, 'form');
    await screenShows(el, 'Saved.');
    expect(backend.requests.find((r) => r.method === 'PATCH')!.body).to.deep.equal({
      allowed_origins: ['https://shop.test', 'https://app.test'],
      minimum_age: 21,
      document_authenticity: 'manual_review',
      attempts_per_step: 5,
    });
    const csv =
      'name,date_of_birth,list,aliases\n"FICTITIOUS, Ivan",1971-04-01,internal,Ivan F|I. Fictitious\nJane Roe,,,\n';
    chooseFile(
      root(el).querySelector<HTMLInputElement>('#watchlist-file')!,
      new File([csv], 'list.csv', { type: 'text/csv' }),
    );
    await screenShows(el, 'The watchlist now has 2 entries.');
    expect(backend.requests.find((r) => r.method === 'PUT')!.body).to.deep.equal({
      entries: [
        {
          name: 'FICTITIOUS, Ivan',
          date_of_birth: '1971-04-01',
          list: 'internal',
          aliases: ['Ivan F', 'I. Fictitious'],
        },
        { name: 'Jane Roe' },
      ],
    });
    chooseFile(
      root(el).querySelector<HTMLInputElement>('#watchlist-file')!,
      new File(['surname\nX'], 'bad.csv'),
    );
    await screenShows(el, 'The file could not be read');
  });

  it('identities: a re-verification hands over its link', async () => {
    const { el, backend } = await mountConsole({
      role: 'developer',
      path: '/console/identities/idn_Fake0000000000000001',
    });
    await until(() => root(el).querySelector('#reverification'), 4000, 'the identity');
    expect(root(el).textContent).to.include('E***', 'a developer has no identities:read_pii');
    setValue(el, '#reason', 'Annual refresh');
    root(el).querySelector<HTMLInputElement>('#mode-biometric')!.checked = true;
    submit(el, 'form');
    expect(await copyValue(el)).to.equal('https://verify.test/verify/REVERIFYtoken000000001');
    expect(backend.requests.find((r) => r.method === 'POST')!.body).to.deep.equal({
      reason: 'Annual refresh',
      reason_code: 'periodic_review',
      mode: 'biometric',
    });
  });

  it('audit log: filters by action and links targets to their pages', async () => {
    const { el, backend, history } = await mountConsole({ role: 'tenant_admin', path: '/console/audit' });
    await until(() => root(el).querySelectorAll('tbody tr').length === 2, 4000, 'the log');
    setValue(el, '#f-action', 'session.review_rejected');
    submit(el, 'form');
    await until(
      () => history.href === '/console/audit?action=session.review_rejected',
      4000,
      'the filter URL',
    );
    await until(() => root(el).querySelectorAll('tbody tr').length === 1, 4000, 'one event');
    expect(backend.requests.at(-1)!.query.getAll('action')).to.deep.equal(['session.review_rejected']);
    const link = root(el).querySelector<HTMLAnchorElement>('tbody a')!;
    expect(link.getAttribute('href')).to.equal('/console/sessions/sess_Rejected000000000001');
    expect(root(el).textContent).to.include('203.0.113.0/24');
  });
});
