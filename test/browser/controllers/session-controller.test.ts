import { expect } from '@open-wc/testing';
import { VerifyApiError } from '../../../src/api/verify-api-error.ts';
import type { SessionView } from '../../../src/api/verify-api.ts';
import { SessionController, type SessionHooks } from '../../../src/controllers/session-controller.ts';
import { until } from '../support/dom.ts';
import { FakeVerifyApi } from '../support/fake-verify-api.ts';
import { type ControllerTestHost, mountHost, record } from './test-host.ts';

const NONE = { verifyUrl: null, token: null, apiBase: null, api: null };

describe('SessionController', () => {
  let host: ControllerTestHost;
  let log: string[];
  let polledAnswer: boolean;
  let session: SessionController;
  let events: { type: string; detail: unknown }[];

  beforeEach(() => {
    host = mountHost();
    log = [];
    polledAnswer = false;
    const hooks: SessionHooks = {
      loaded: (view) => log.push(`loaded ${view.status}`),
      failed: (error) => log.push(`failed ${(error as VerifyApiError).code ?? 'network'}`),
      started: (replacing) => log.push(`started ${replacing}`),
      missing: () => log.push('missing'),
      exhausted: () => log.push('exhausted'),
      polled: (view: SessionView) => {
        log.push(`polled ${view.status} ${polledAnswer ? 'moved on' : 'waiting'}`);
        return polledAnswer;
      },
    };
    session = new SessionController(host, hooks);
    events = record(host, ['idv-ready']);
  });
  afterEach(() => host.remove());

  it('turns a verify-url into a client and the face model URL beside its API', () => {
    session.connect({ ...NONE, verifyUrl: 'https://verify.example.com/verify/vt_abc' });
    expect(session.client).to.not.equal(null);
    expect(session.visionBase).to.match(/^https:\/\/verify\.example\.com\//);
    expect(log).to.deep.equal(['started false']);
  });

  it('says the link is missing a microtask later, unless one arrives first', async () => {
    session.connect(NONE);
    expect(session.missing).to.equal(false);
    await Promise.resolve();
    expect(session.missing).to.equal(true);
    expect(log).to.deep.equal(['missing']);

    const other = mountHost();
    const late = new SessionController(other, {
      loaded: () => {},
      failed: () => {},
      started: () => {},
      missing: () => log.push('late missing'),
      exhausted: () => {},
      polled: () => true,
    });
    late.connect(NONE);
    late.connect({ ...NONE, api: new FakeVerifyApi() });
    await Promise.resolve();
    expect(late.missing).to.equal(false);
    expect(log).to.not.include('late missing');
    other.remove();
  });

  it('fires idv-ready once per token, before the host hears of the view', async () => {
    host.addEventListener('idv-ready', () => log.push('ready'));
    const api = new FakeVerifyApi();
    session.connect({ ...NONE, api });
    await until(() => log.includes('loaded collecting'), 2000, 'loaded');
    await session.load();
    expect(log).to.deep.equal(['started false', 'ready', 'loaded collecting', 'loaded collecting']);
    expect(events).to.deep.equal([
      {
        type: 'idv-ready',
        detail: {
          session_id: 'sess_test',
          status: 'collecting',
          steps: ['consent', 'id_document'],
          sandbox: false,
        },
      },
    ]);
    expect(session.session?.status).to.equal('collecting');
  });

  it('starts a new visit for new credentials: started(true), idv-ready again; the same client is no change', async () => {
    const api = new FakeVerifyApi();
    session.connect({ ...NONE, api });
    await until(() => events.length === 1, 2000, 'first ready');
    session.connect({ ...NONE, api });
    session.connect({ ...NONE, api: new FakeVerifyApi() });
    await until(() => events.length === 2, 2000, 'second ready');
    expect(log.filter((line) => line.startsWith('started'))).to.deep.equal(['started false', 'started true']);
  });

  it('calls a refused link invalid before idv-ready and expired after it', async () => {
    const refused = new VerifyApiError(401, { code: 'invalid_token', detail: 'no' });
    expect(session.classify(refused)).to.deep.equal({
      kind: 'expired',
      code: 'invalid_token',
      reason: 'invalid_link',
    });
    session.connect({ ...NONE, api: new FakeVerifyApi() });
    await until(() => events.length === 1, 2000, 'ready');
    expect(session.classify(refused)).to.deep.equal({
      kind: 'expired',
      code: 'invalid_token',
      reason: 'token_expired',
    });
    const gone = new VerifyApiError(410, { code: 'session_expired', detail: 'gone' });
    expect(session.classify(gone)).to.deep.include({ reason: 'session_expired' });
    expect(session.classify(new TypeError('Failed to fetch'))).to.deep.equal({
      kind: 'network',
      code: 'network_error',
    });
  });

  it('hands a failed load to the host', async () => {
    const api = new FakeVerifyApi();
    api.failNext('getSession', 401, 'token_expired');
    session.connect({ ...NONE, api });
    await until(() => log.some((line) => line.startsWith('failed')), 2000, 'failure');
    expect(log).to.deep.equal(['started false', 'failed token_expired']);
    expect(events).to.deep.equal([]);
  });

  it('polls until the host moves on, and stops when the host leaves the page', async () => {
    const api = new FakeVerifyApi();
    session.connect({ ...NONE, api });
    await until(() => events.length === 1, 2000, 'ready');
    session.startPolling(10);
    await until(() => log.filter((line) => line.startsWith('polled')).length >= 2, 2000, 'two polls');
    polledAnswer = true;
    const reads = () => api.calls.filter((c) => c.method === 'getSession').length;
    await until(() => log.some((line) => line.endsWith('moved on')), 2000, 'last poll');
    const after = reads();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reads()).to.equal(after);

    polledAnswer = false;
    session.startPolling(10);
    host.remove();
    const atRemoval = reads();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reads()).to.equal(atRemoval);
  });

  it('tracks attempts left once one failed, also from a resumed view, and reports exhaustion once', async () => {
    const api = new FakeVerifyApi({
      // As the server sends it: every step with its attempts, consent's never spent.
      steps: [
        { step: 'consent', status: 'completed', attempts_remaining: 3 },
        { step: 'id_document', status: 'pending', attempts_remaining: 2 },
      ],
    });
    session.connect({ ...NONE, api });
    await until(() => events.length === 1, 2000, 'ready');
    expect(session.attemptsLeft).to.deep.equal({ id_document: 2 });
    session.noteAttempt('liveness', 3, false);
    expect(session.attemptsLeft).to.deep.equal(
      { id_document: 2 },
      'a success before any failure shows nothing',
    );
    session.noteAttempt('id_document', 1, true, 'collecting');
    expect(session.attemptsLeft).to.deep.equal({ id_document: 1 });
    api.session = { ...api.session, status: 'rejected' };
    session.noteAttempt('id_document', 0, true, 'rejected');
    expect(session.exhausted).to.equal(true);
    await until(() => log.filter((l) => l.startsWith('loaded')).length === 2, 2000, 'reloaded');
    expect(log.filter((line) => line === 'exhausted')).to.have.length(1);
  });

  it('reads a resumed visit against the tenant’s own attempts per step, not a fixed three', async () => {
    const api = new FakeVerifyApi({
      steps: [
        { step: 'consent', status: 'completed', attempts_remaining: 5 },
        { step: 'id_document', status: 'completed', attempts_remaining: 5 },
        { step: 'liveness', status: 'pending', attempts_remaining: 4 },
      ],
    });
    session.connect({ ...NONE, api });
    await until(() => events.length === 1, 2000, 'ready');
    expect(session.attemptsLeft).to.deep.equal(
      { liveness: 4 },
      'one of five spent; untried steps show nothing',
    );
  });

  it('remembers a session that was already finished when the visit began', async () => {
    session.connect({ ...NONE, api: new FakeVerifyApi({ status: 'processing' }) });
    await until(() => events.length === 1, 2000, 'ready');
    expect(session.arrivedFinished).to.equal(true);
  });
});
