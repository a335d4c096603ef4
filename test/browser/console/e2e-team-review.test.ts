/**
 * Issue 25's acceptance against the real server (`npm start`'s server on a fresh data dir, started by
 * test/support-server/console-e2e-plugin.ts), in every engine: the console is mounted in this page and
 * its `fetchImpl` reaches the real server through web-test-runner (support/server-fetch.ts), so every
 * answer is the server's. (e2e-review.test.ts covers the built console under the server's own CSP, in
 * Chromium.)
 *
 * Two reviewers: the demo admin claims a session; an invited reviewer's console shows the claim, the
 * server refuses the reviewer's decision with 409 `review_claimed`, the reviewer takes the session over
 * (confirmed) and the audit log records it with the previous holder. The review screen's decision
 * controls and document-data comparison end within the first 1,600 px at 1280 × 800. Opening the evidence
 * shows in the audit log. The CSV export of a filtered sessions list holds exactly the API's list.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../../server/web/console/main.ts';
import type { IdvConsoleElement } from '../../../server/web/console/console-element.ts';
import { MemoryHistory } from '../../../server/web/console/routing/history.ts';
import type { ConsoleE2eCommand, Prepared } from '../../support-server/console-e2e-plugin.ts';
import { until } from '../support/dom.ts';
import { engine } from '../support/engine.ts';
import { serverCommands } from './support/console-tab.ts';
import { resetStorage, screenOf } from './support/mount-console.ts';
import { serverFetch } from './support/server-fetch.ts';

const SERVER_READY_MS = 240_000;
const REVIEW_READY_MS = 180_000;
const STEP_MS = 30_000;

const command = serverCommands<ConsoleE2eCommand>();

interface Call {
  method?: string;
  token: string;
  body?: unknown;
}

/** One API call as a user, in sandbox: the answer's status and JSON (or text) body. */
async function api(path: string, { method = 'GET', token, body }: Call) {
  const response = await serverFetch(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-environment': 'sandbox',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json, text };
}

async function login(email: string, password: string): Promise<{ token: string; userId: string }> {
  const response = await serverFetch('/v1/console/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return { token: body.access_token, userId: body.user.user_id };
}

/**
 * `<idv-console>` signed in with `token` on the real server, in sandbox, or with `environment` null as a
 * new tab where the console picks (the user's last choice, else sandbox when production is empty).
 */
async function consoleOf(
  token: string,
  path: string,
  environment: 'sandbox' | null = 'sandbox',
): Promise<IdvConsoleElement> {
  resetStorage();
  sessionStorage.setItem('idv-console-token', JSON.stringify({ token, expiresAt: Date.now() + 3_600_000 }));
  if (environment) sessionStorage.setItem('idv-console-environment', environment);
  return fixture<IdvConsoleElement>(
    html`<idv-console theme="light" locale="en" .fetchImpl=${serverFetch} .history=${new MemoryHistory(path)}></idv-console>`,
  );
}

function shadowOf(el: IdvConsoleElement): ShadowRoot | null {
  return screenOf(el)?.shadowRoot ?? null;
}

describe('the console against the real server: a team reviews', () => {
  let prepared: Prepared;
  let session: { sessionId: string; uploadId: string };
  let admin: { token: string; userId: string };
  let reviewer: { token: string; userId: string };

  before(async function () {
    this.timeout(SERVER_READY_MS + REVIEW_READY_MS + 60_000);
    prepared = await command<Prepared>('idv-console-e2e:prepare', {}, SERVER_READY_MS);
    session = await command(
      'idv-console-e2e:review-session',
      { reference: `team-${engine}` },
      REVIEW_READY_MS,
    );
    admin = await login(prepared.email, prepared.password);
    // A second reviewer, invited by the admin, with a password of their own.
    const email = `reviewer-${engine}-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const invited = await api('/v1/users', {
      method: 'POST',
      token: admin.token,
      body: { email, role: 'reviewer' },
    });
    expect(invited.status, invited.text).to.equal(201);
    const password = `quiet lantern ${crypto.randomUUID()}`;
    const accepted = await api('/v1/console/accept-invitation', {
      method: 'POST',
      token: '',
      body: { invitation_token: invited.json.invitation_token, password },
    });
    expect(accepted.status, accepted.text).to.be.within(200, 201);
    reviewer = await login(email, password);
  });

  afterEach(async () => {
    resetStorage();
    document.body.style.removeProperty('inline-size');
    if (engine === 'chromium') await setViewport({ width: 800, height: 600 });
  });

  it('refuses the second reviewer until an explicit take-over, which is audited', async function () {
    this.timeout(120_000);
    const path = `/v1/sessions/${session.sessionId}`;
    const claimed = await api(`${path}/claim`, { method: 'POST', token: admin.token });
    expect(claimed.status, claimed.text).to.equal(200);
    expect(claimed.json.reviewer_id).to.equal(admin.userId);

    const refused = await api(`${path}/review`, {
      method: 'POST',
      token: reviewer.token,
      body: { decision: 'approve' },
    });
    expect(refused.status).to.equal(409);
    expect(refused.json.code).to.equal('review_claimed');
    expect(refused.json.claimed_by).to.equal(admin.userId);

    if (engine === 'chromium') await setViewport({ width: 1280, height: 800 });
    else document.body.style.setProperty('inline-size', '1280px');
    const el = await consoleOf(reviewer.token, `/console/reviews?q=${session.sessionId}`);
    const claimBar = await until(
      () => shadowOf(el)?.querySelector('#claim.bad'),
      STEP_MS,
      "the admin's claim",
    );
    expect(claimBar.textContent).to.include(admin.userId);
    const shadow = shadowOf(el)!;
    expect(shadow.querySelector<HTMLButtonElement>('#approve')!.disabled).to.equal(true);

    // Within the first 1,600 px at 1280 × 800: the decision controls and the document-data comparison.
    await until(() => shadow.querySelector('#document-data h3'), STEP_MS, 'the comparison');
    // What the server read off the passport against what was sent, as the API gives it to the reviewer.
    const data = await api(`${path}/document-data`, { token: reviewer.token });
    if (data.status === 200) {
      const rows = await until(
        () => {
          const found = shadow.querySelectorAll('#document-data tbody tr');
          return found.length > 0 ? found : null;
        },
        STEP_MS,
        'the values compared',
      );
      expect(rows).to.have.length(data.json.fields.length);
      expect(shadow.querySelectorAll('#document-data tr.differs')).to.have.length(
        data.json.disagreements.length,
      );
    } else {
      expect(data.status, data.text).to.equal(404);
    }
    for (const selector of ['#approve', '#reject', '#document-data', '#face-comparison', '#review-reasons']) {
      const bottom = shadow.querySelector(selector)!.getBoundingClientRect().bottom + window.scrollY;
      expect(bottom, selector).to.be.at.most(1600);
    }

    shadow.querySelector<HTMLButtonElement>('#take-over')!.click();
    const confirm = await until(
      () => shadow.querySelector<HTMLButtonElement>('#confirm-take-over'),
      5000,
      'the confirmation',
    );
    confirm.click();
    await until(
      () => /You are reviewing/.test(shadow.querySelector('#claim')?.textContent ?? ''),
      STEP_MS,
      'the take-over',
    );
    const now = await api(`${path}/claim`, { token: reviewer.token });
    expect(now.json.reviewer_id).to.equal(reviewer.userId);
    expect(shadow.querySelector<HTMLButtonElement>('#approve')!.disabled).to.equal(false);

    const audit = await api(
      `/v1/audit-events?target_type=session&target_id=${session.sessionId}&action=session.claim_taken_over`,
      { token: admin.token },
    );
    expect(audit.status, audit.text).to.equal(200);
    expect(audit.json.data).to.have.length(1);
    expect(audit.json.data[0].actor.id).to.equal(reviewer.userId);
    expect(audit.json.data[0].details.previous_reviewer_id).to.equal(admin.userId);

    // The evidence the reviewer's console opened is in the audit log, under the reviewer's name.
    await until(
      () =>
        [...shadow.querySelectorAll('.images idv-evidence-image')].some((viewer) =>
          viewer.shadowRoot?.querySelector('img'),
        ),
      STEP_MS,
      'an evidence image',
    );
    const viewed = await api(
      `/v1/audit-events?target_type=session&target_id=${session.sessionId}&action=session.evidence_viewed`,
      { token: admin.token },
    );
    expect(viewed.status, viewed.text).to.equal(200);
    expect(viewed.json.data.map((event: any) => event.actor.id)).to.include(reviewer.userId);
  });

  it("opens a new tab in sandbox when production has no session, with each environment's waiting count", async function () {
    this.timeout(60_000);
    const production = await serverFetch('/v1/sessions?limit=1', {
      headers: { authorization: `Bearer ${reviewer.token}`, 'x-environment': 'production' },
    }).then((response) => response.json());
    const waiting = await api('/v1/stats?environment=sandbox&days=1', { token: reviewer.token });
    const el = await consoleOf(reviewer.token, '/console/reviews', null);
    const picker = await until(
      () => {
        const select = el.shadowRoot?.querySelector<HTMLSelectElement>('#environment');
        return select && /waiting/.test(select.textContent ?? '') ? select : null;
      },
      STEP_MS,
      'the picker with its counts',
    );
    expect(picker.value).to.equal(production.data.length === 0 ? 'sandbox' : 'production');
    const sandbox = [...picker.options].find((option) => option.value === 'sandbox')!;
    expect(sandbox.textContent).to.include(`${waiting.json.review_queue.length} waiting`);
  });

  it("exports exactly the API's list for the sessions list's filters", async function () {
    this.timeout(60_000);
    const saved: Blob[] = [];
    const created = URL.createObjectURL;
    const click = HTMLAnchorElement.prototype.click;
    let lastBlob: Blob | null = null;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      lastBlob = blob as Blob;
      return created.call(URL, blob);
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.download && lastBlob) saved.push(lastBlob);
    };
    try {
      const el = await consoleOf(
        admin.token,
        '/console/sessions?status=review_required&reason=sandbox_forced',
      );
      await until(() => shadowOf(el)?.querySelector('#export'), STEP_MS, 'the export button');
      shadowOf(el)!.querySelector<HTMLButtonElement>('#export')!.click();
      await until(() => saved.length === 1, STEP_MS, 'the download');
      const rows = (await saved[0]!.text()).trim().split(/\r?\n/);
      const header = rows[0]!.split(',');
      expect(header.slice(0, 2)).to.deep.equal(['session_id', 'status']);
      const exported = rows.slice(1).map((row) => row.split(',')[0]);

      const listed: string[] = [];
      let after = '';
      for (;;) {
        const page = await api(
          `/v1/sessions?status=review_required&reason_code=sandbox_forced&limit=100${after ? `&starting_after=${after}` : ''}`,
          { token: admin.token },
        );
        expect(page.status, page.text).to.equal(200);
        listed.push(...page.json.data.map((s: { session_id: string }) => s.session_id));
        if (!page.json.has_more) break;
        after = listed.at(-1)!;
      }
      expect(listed).to.include(session.sessionId);
      expect(exported).to.deep.equal(listed);
      const audit = await api('/v1/audit-events?action=session.exported&limit=1', { token: admin.token });
      expect(audit.json.data[0].actor.id).to.equal(admin.userId);
    } finally {
      URL.createObjectURL = created;
      HTMLAnchorElement.prototype.click = click;
    }
  });
});
