/**
 * The console end to end, against the real server (`npm start`'s server/node.ts on a fresh data dir, see
 * test/support-server/console-e2e-plugin.ts): a sandbox session with a passport photo lands in
 * `review_required`; the demo admin logs in to /console, switches to sandbox, opens the review queue,
 * sees the photo (fetched from the API with the console token), approves with the `a` key, and finds the
 * new identity on the identities screen. An independent webhook receiver (a plain node:http server that
 * checks the signatures itself, test/support-server/webhook-receiver.ts) must have received
 * `session.approved` with both signatures valid.
 *
 * The console runs in a tab of its own on the server's origin, under the server's CSP; this page tells
 * Node what to do there. Every wait is generous and polled: a busy 2-core runner starts the server, reads
 * the photo and decides the session several times slower than an idle laptop.
 */
import { expect } from '@open-wc/testing';
import { en } from '../../../server/web/console/i18n/en.ts';
import { chromiumOnly } from '../support/engine.ts';
import type { ConsoleE2eCommand, Prepared } from '../../support-server/console-e2e-plugin.ts';
import type { CheckedDelivery } from '../../support-server/webhook-receiver.ts';
import { consoleTab, STEP_MS } from './support/console-tab.ts';

const ADMIN = 'idv-console';
const SERVER_READY_MS = 240_000;

const { command, inConsole } = consoleTab<ConsoleE2eCommand>('idv-console-e2e:wait');

async function sessionNow(sessionId: string): Promise<Record<string, any>> {
  const answer = await command<{ status: number; body: Record<string, any> }>('idv-console-e2e:session', {
    session_id: sessionId,
  });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  return answer.body;
}

async function pause(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('the console against the real server: review to identity, with signed webhooks', () => {
  let prepared: Prepared;
  let approved = false;

  before(async function () {
    chromiumOnly(this, 'the console runs in a second tab driven through the DevTools protocol');
    this.timeout(SERVER_READY_MS + 10_000);
    prepared = await command<Prepared>('idv-console-e2e:prepare', {}, SERVER_READY_MS);
  });

  after(async function () {
    this.timeout(60_000);
    await command('idv-console-e2e:stop', {}, 60_000);
  });

  it('logs in, shows the evidence image, approves with the keyboard and lists the identity', async function () {
    this.timeout(8 * STEP_MS);
    // Evidence has no public URL: the image below can only have come through the console token.
    expect(prepared.evidenceWithoutTokenStatus).to.equal(401);

    await command('idv-console-e2e:open', { path: '/console/login' });
    await inConsole(
      'the login form',
      (_, deep) => !!deep(['idv-console', 'idv-login-screen', '#email']),
      null,
    );
    await command('idv-console-e2e:type', {
      selector: `${ADMIN} >>> idv-login-screen >>> #email`,
      text: prepared.email,
    });
    await command('idv-console-e2e:type', {
      selector: `${ADMIN} >>> idv-login-screen >>> #password`,
      text: prepared.password,
    });
    await command('idv-console-e2e:press', { key: 'Enter' });
    const landed = await inConsole(
      'the signed-in shell',
      (_, deep) => (deep(['idv-console', '#environment']) ? location.pathname : null),
      null,
    );
    expect(landed, 'a tenant_admin lands on the dashboard').to.equal('/console/dashboard');

    // The session was made with the sandbox key: switch the console to the sandbox environment.
    await command('idv-console-e2e:select', { selector: `${ADMIN} >>> #environment`, value: 'sandbox' });
    await inConsole('the sandbox banner', (_, deep) => !!deep(['idv-console', '.banner']), null);
    await command('idv-console-e2e:click', { selector: `${ADMIN} >>> nav a[href="/console/reviews"]` });

    const images = await inConsole(
      'the session and its decoded evidence image in the review queue',
      (sessionId, deep) => {
        const heading = deep(['idv-console', 'idv-review-screen', '#current']);
        if (!heading?.textContent?.includes(sessionId)) return null;
        const review = deep(['idv-console', 'idv-review-screen']);
        // The evidence section's viewers (the face comparison above shows the document again).
        const shown = [...(review?.shadowRoot?.querySelectorAll('.images idv-evidence-image') ?? [])].map(
          (viewer) => viewer.shadowRoot?.querySelector('img') ?? null,
        );
        if (shown.length === 0 || !shown.every((img) => img?.complete && img.naturalWidth > 0)) return null;
        return shown.map((img) => ({
          src: img?.src ?? '',
          width: img?.naturalWidth ?? 0,
          height: img?.naturalHeight ?? 0,
          alt: img?.alt ?? '',
        }));
      },
      prepared.sessionId,
    );
    expect(images).to.have.length(1);
    // A blob: URL the console made from `GET …/evidence/:upload_id` with its Bearer token, decoded at the
    // passport photo's own size (1600×1200).
    expect(images[0]?.src).to.match(/^blob:/);
    expect([images[0]?.width, images[0]?.height]).to.deep.equal([1600, 1200]);
    expect(images[0]?.alt).to.not.equal('');

    // `a` approves (the page's shortcut); focus is on the screen heading, not in a text field.
    await command('idv-console-e2e:press', { key: 'a' });
    // The session leaves the queue: the queue is empty, or (when other tests' sessions wait in the same
    // server, e2e-team-review.test.ts) it shows another one.
    const saved = await inConsole(
      'the decision saved and the session gone from the queue',
      (texts, deep) => {
        const review = deep(['idv-console', 'idv-review-screen']);
        const content = review?.shadowRoot?.textContent ?? '';
        const heading = deep(['idv-console', 'idv-review-screen', '#current'])?.textContent ?? '';
        const gone = content.includes(texts.empty) || (heading !== '' && !heading.includes(texts.sessionId));
        return content.includes(texts.saved) && gone ? content : null;
      },
      {
        saved: en.decisionSaved.replace('{status}', en.status_approved),
        empty: en.queueEmptyTitle,
        sessionId: prepared.sessionId,
      },
    );
    expect(saved).to.include(en.decisionSaved.replace('{status}', en.status_approved));

    let session = await sessionNow(prepared.sessionId);
    for (const deadline = performance.now() + STEP_MS; !session['identity_id']; ) {
      if (performance.now() > deadline) break;
      await pause(500);
      session = await sessionNow(prepared.sessionId);
    }
    expect(session['status']).to.equal('approved');
    expect(session['identity_id'], 'the approval created an identity').to.match(/^idn_/);
    approved = true;

    await command('idv-console-e2e:click', { selector: `${ADMIN} >>> nav a[href="/console/identities"]` });
    const row = await inConsole(
      "the new identity's row",
      (reference, deep) => {
        const screen = deep(['idv-console', 'idv-identities-screen']);
        const rows = [...(screen?.shadowRoot?.querySelectorAll('tbody tr') ?? [])];
        const match = rows.find((tr) => tr.textContent?.includes(reference));
        return match
          ? { id: match.querySelector('th a')?.textContent?.trim() ?? '', text: match.textContent ?? '' }
          : null;
      },
      prepared.reference,
    );
    expect(row.id).to.equal(session['identity_id']);
    expect(row.text).to.include(en.identityStatus_verified);

    const problems = await command<string[]>('idv-console-e2e:page-problems');
    expect(problems, 'uncaught errors or CSP violations in the console tab').to.deep.equal([]);
  });

  it('the independent receiver got session.approved with valid signatures', async function () {
    this.timeout(2 * STEP_MS);
    if (!approved)
      throw new Error('the console did not approve the session (previous test): nothing to check');
    let deliveries: CheckedDelivery[] = [];
    let approval: CheckedDelivery | undefined;
    // At least once, soon after the decision: the outbox worker sends it within seconds.
    for (const deadline = performance.now() + STEP_MS; !approval && performance.now() < deadline; ) {
      deliveries = await command<CheckedDelivery[]>('idv-console-e2e:deliveries');
      approval = deliveries.find((d) => d.event === 'session.approved' && d.sessionId === prepared.sessionId);
      if (!approval) await pause(500);
    }
    expect(approval, `no session.approved among ${deliveries.map((d) => d.event).join(', ')}`).to.exist;
    expect(approval?.serviceSignatureValid, 'x-service-signature').to.equal(true);
    expect(approval?.standardSignatureValid, 'webhook-signature').to.equal(true);
    expect(approval?.tamperedBodyRejected, 'a tampered body must fail both checks').to.equal(true);
    // Every delivery of this endpoint, not only the approval, carries valid signatures.
    const events = deliveries.map((d) => d.event);
    expect(events).to.include.members(['session.review_required', 'session.approved']);
    for (const delivery of deliveries) {
      expect(
        delivery.serviceSignatureValid && delivery.standardSignatureValid && delivery.tamperedBodyRejected,
        `${delivery.event} ${delivery.webhookId}`,
      ).to.equal(true);
    }
  });
});
