import { expect } from '@open-wc/testing';
import '../../../src/id-verify.ts';
import { MOCK_WEBHOOK_CHANNEL, type MockWorker, startMockWorker } from '../../../mock/browser.ts';
import type { IdVerifyElement } from '../../../src/id-verify-element.ts';
import { until } from '../support/dom.ts';
import { chromiumOnly } from '../support/engine.ts';
import {
  acceptPreview,
  answerLivenessByCamera,
  chooseDocumentType,
  completion,
  confirmDetails,
  giveConsent,
  mountWidget,
  onScreen,
  submitOnReview,
  where,
} from '../e2e/support/drive-widget.ts';

/** The tenant's server-side call, made in-process (as a backend would, never from page code with the key). */
async function tenantCall(running: MockWorker, method: string, path: string, body?: unknown) {
  const response = await running.mock.fetch(
    new Request(`${running.mock.origin}${path}`, {
      method,
      headers: {
        'x-api-key': running.fixtures.sandboxKey,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return { status: response.status, body: await response.json() };
}

describe('the widget against the mock Service Worker (no server process)', () => {
  let running: MockWorker;
  let el: IdVerifyElement | null = null;
  const intercepted: string[] = [];

  before(async function () {
    // The whole server (PGlite, migrations) starts in the page: ~10 s idle, minutes on a loaded runner.
    this.timeout(180_000);
    running = await startMockWorker({ persist: false });
    // What crossed the Service Worker: proof that the widget's own fetches were intercepted.
    running.worker.events.on('request:start', ({ request }: { request: Request }) => {
      intercepted.push(`${request.method} ${new URL(request.url).pathname}`);
    });
  });
  after(async () => {
    el?.remove();
    await running?.stop();
  });

  it('takes a tier2 session from consent to an automated approval, with the webhook on the channel', async function () {
    chromiumOnly(this, "both sides are auto-captured from the ID card only Chromium's camera shows");
    this.timeout(90_000);
    const webhooks: string[] = [];
    const channel = new BroadcastChannel(MOCK_WEBHOOK_CHANNEL);
    channel.onmessage = ({ data }) => webhooks.push(JSON.parse(data.body).event);
    const hook = await tenantCall(running, 'POST', '/v1/webhooks', {
      url: `${location.origin}/tenant/webhooks`,
      events: ['session.approved', 'identity.created'],
    });
    expect(hook.status).to.equal(201);

    const created = await tenantCall(running, 'POST', '/v1/sessions', {
      country: 'FRA',
      flow: 'user',
      tier: 'tier2',
    });
    expect(created.status).to.equal(201);
    expect(created.body.verify_url.startsWith(`${location.origin}/verify/`)).to.equal(true);

    el = mountWidget(created.body.verify_url);
    const widget = el;
    const completed = completion(widget, 80_000);
    await giveConsent(widget);
    await chooseDocumentType(widget, 'id_card');
    await onScreen(widget, 'document_front', 20_000);
    await acceptPreview(widget);
    await onScreen(widget, 'document_back', 20_000);
    await acceptPreview(widget);
    await confirmDetails(widget, {
      first_name: 'Camille',
      last_name: 'Martin',
      date_of_birth: '1990-04-12',
      document_number: 'MOCKCAM01',
      expiry_date: '2034-01-31',
    });
    const actions = await answerLivenessByCamera(widget);
    expect(actions.length).to.be.greaterThan(0);
    await submitOnReview(widget);
    const done = await completed;

    const result = await tenantCall(running, 'GET', `/v1/sessions/${created.body.session_id}/result`);
    // Which check kept the session from approval, should one (seen once, in a run with three browsers at once).
    const checks = (result.body.checks as { type: string; status: string; details?: unknown }[])
      .filter((check) => check.status !== 'passed')
      .map((check) => `${check.type}: ${check.status} ${JSON.stringify(check.details ?? {})}`);
    expect(done.status, checks.join('; ')).to.equal('approved');
    expect(where(widget)).to.equal('result_approved');
    expect(result.body.decided_by).to.equal('automated');
    expect(result.body.checks.find((c: { type: string }) => c.type === 'document_quality').status).to.equal(
      'passed',
    );

    // The widget's own calls went through the Service Worker to the mock.
    expect(intercepted).to.include('GET /v1/verify/session');
    expect(intercepted.filter((entry) => entry === 'POST /v1/verify/documents')).to.have.length(2);
    expect(intercepted).to.include('POST /v1/verify/complete');

    await running.mock.flush();
    await until(
      () => webhooks.includes('session.approved') && webhooks.includes('identity.created'),
      10_000,
      'webhooks',
    );
    channel.close();
  });

  it('shows the widget a simulated outage from scenarios.failNext, and the next load works', async function () {
    this.timeout(30_000);
    el?.remove();
    const created = await tenantCall(running, 'POST', '/v1/sessions', {
      country: 'FRA',
      flow: 'user',
      tier: 'tier1',
    });
    const loads = () => intercepted.filter((entry) => entry === 'GET /v1/verify/session').length;
    const before = loads();
    running.scenarios.failNext(1, 503, { path: '/v1/verify/session' });
    const errors: string[] = [];
    el = mountWidget(created.body.verify_url);
    el.addEventListener('idv-error', (event) => errors.push((event as CustomEvent).detail.code));
    await until(() => errors.length > 0 || where(el!) === 'consent', 15_000, 'the first answer');
    expect(running.scenarios.state.failures, 'the failure was used up').to.deep.equal([]);
    expect(loads()).to.be.greaterThan(before);
    // Either the widget reported the outage or retried past it on its own; both are honest behaviours.
    if (errors.length > 0) expect(errors).to.include('service_unavailable');

    el.remove();
    el = mountWidget(created.body.verify_url);
    await onScreen(el, 'consent', 15_000);
  });

  it('keeps a session it just created across a restart on the same IndexedDB (the redirect flow)', async function () {
    // Three in-page servers start here, each as long as the one `before` allows 180 s for.
    this.timeout(300_000);
    await running.stop();
    const databaseName = `idv-mock-test-${Date.now()}`;
    const first = await startMockWorker({ databaseName, exposeOnWindow: false });
    const created = await tenantCall(first, 'POST', '/v1/sessions', {
      country: 'FRA',
      flow: 'user',
      tier: 'tier1',
    });
    expect(created.status).to.equal(201);
    // No read in between: the write alone must have reached IndexedDB before it was acknowledged.
    await first.stop();
    const second = await startMockWorker({ databaseName, exposeOnWindow: false });
    try {
      const got = await tenantCall(second, 'GET', `/v1/sessions/${created.body.session_id}`);
      expect(got.status).to.equal(200);
      expect(got.body.status).to.equal('created');
    } finally {
      await second.reset();
    }
    running = await startMockWorker({ persist: false });
  });
});
