import { expect } from '@open-wc/testing';
import {
  changeDetail,
  NavigationController,
  screenName,
} from '../../../src/controllers/navigation-controller.ts';
import type { FlowSession, FlowState } from '../../../src/flow/flow-types.ts';
import { type ControllerTestHost, mountHost, record } from './test-host.ts';

const EVENTS = ['idv-before-step-change', 'idv-step-change', 'idv-complete', 'idv-token-expired'];
const session: FlowSession = { status: 'collecting', required_steps: ['consent', 'id_document'] };

describe('NavigationController', () => {
  let host: ControllerTestHost;
  let moves: [string, string][];
  let focused: number;
  let navigation: NavigationController;
  let events: { type: string; detail: unknown }[];

  beforeEach(() => {
    host = mountHost();
    moves = [];
    focused = 0;
    navigation = new NavigationController(host, {
      moved: (previous, next) => moves.push([screenName(previous), screenName(next)]),
      sessionId: () => 'sess_1',
      focus: () => focused++,
    });
    events = record(host, EVENTS);
  });
  afterEach(() => host.remove());

  it('starts loading and moves to the first step with one idv-step-change (none before it from loading)', () => {
    expect(navigation.state.phase).to.equal('loading');
    navigation.dispatch({ type: 'session_loaded', session });
    expect(navigation.state).to.include({ phase: 'step', screen: 'consent' });
    expect(events).to.deep.equal([
      {
        type: 'idv-step-change',
        detail: { from: 'loading', to: 'consent', step: 'consent', index: 1, total: 3 },
      },
    ]);
    expect(moves).to.deep.equal([['loading', 'consent']]);
    expect(focused, 'the first screen keeps the page focus').to.equal(0);
  });

  it('asks idv-before-step-change, then fires idv-step-change and moves focus', () => {
    navigation.dispatch({ type: 'session_loaded', session });
    events.length = 0;
    navigation.dispatch({ type: 'consent_given' });
    expect(events.map((e) => e.type)).to.deep.equal(['idv-before-step-change', 'idv-step-change']);
    expect(events[0]?.detail).to.deep.equal(events[1]?.detail);
    expect(focused).to.equal(1);
  });

  it('holds the move when idv-before-step-change is cancelled, until proceed()', () => {
    navigation.dispatch({ type: 'session_loaded', session });
    host.addEventListener('idv-before-step-change', (event) => event.preventDefault(), { once: true });
    events.length = 0;
    navigation.dispatch({ type: 'consent_given' });
    expect(navigation.state).to.include({ screen: 'consent' });
    expect(events.map((e) => e.type)).to.deep.equal(['idv-before-step-change']);
    navigation.proceed();
    expect(navigation.state).to.include({ screen: 'document_type' });
    expect(events.map((e) => e.type)).to.deep.equal(['idv-before-step-change', 'idv-step-change']);
    navigation.proceed();
    expect(events).to.have.length(2);
  });

  it('fires nothing for an event that does not apply, and no step change for a change on the same screen', () => {
    navigation.dispatch({ type: 'session_loaded', session });
    events.length = 0;
    const before = navigation.state;
    navigation.dispatch({ type: 'details_confirmed' });
    expect(navigation.state).to.equal(before);
    navigation.dispatch({ type: 'consent_given' });
    events.length = 0;
    navigation.dispatch({ type: 'camera_failed', reason: 'denied' });
    expect(navigation.state).to.deep.include({ screen: 'document_type' });
    expect((navigation.state as Extract<FlowState, { phase: 'step' }>).ctx.cameraIssue).to.equal('denied');
    expect(events).to.deep.equal([]);
  });

  it('goes back inside the document step (the flow`s own history), announcing the move', () => {
    navigation.dispatch({ type: 'session_loaded', session });
    navigation.dispatch({ type: 'consent_given' });
    navigation.dispatch({ type: 'document_type_chosen', documentType: 'id_card' });
    events.length = 0;
    navigation.dispatch({ type: 'back' });
    expect(navigation.state).to.include({ screen: 'document_type' });
    expect(events.at(-1)?.detail).to.include({ from: 'document_front', to: 'document_type' });
  });

  it('fires idv-complete once per final status, never for processing', () => {
    navigation.show({ phase: 'submitting', ctx: null as never });
    navigation.dispatch({ type: 'status_changed', status: 'processing' });
    navigation.dispatch({ type: 'status_changed', status: 'approved' });
    navigation.dispatch({ type: 'status_changed', status: 'approved' });
    const completes = events.filter((e) => e.type === 'idv-complete');
    expect(completes).to.deep.equal([
      { type: 'idv-complete', detail: { session_id: 'sess_1', status: 'approved' } },
    ]);
  });

  it('fires idv-token-expired after the step change to an expired link or session, not for an invalid link', () => {
    navigation.dispatch({ type: 'session_loaded', session });
    events.length = 0;
    navigation.dispatch({ type: 'token_expired', reason: 'token_expired' });
    expect(events.map((e) => e.type)).to.deep.equal(['idv-step-change', 'idv-token-expired']);
    expect(events[1]?.detail).to.deep.equal({ code: 'verify_token_expired', reason: 'token_expired' });
    events.length = 0;
    navigation.dispatch({ type: 'token_expired', reason: 'session_expired' });
    expect(events[1]?.detail).to.deep.equal({ code: 'session_expired', reason: 'session_expired' });
    events.length = 0;
    navigation.dispatch({ type: 'token_expired', reason: 'invalid_link' });
    expect(events.map((e) => e.type)).to.deep.equal(['idv-step-change']);
  });

  it('show() renders a state without events (the accessibility audit)', () => {
    const before = host.updates;
    navigation.show({ phase: 'result', status: 'approved', ctx: null });
    expect(navigation.state).to.include({ phase: 'result' });
    expect(events).to.deep.equal([]);
    expect(host.updates).to.be.greaterThan(before);
  });

  it('describes moves with step, 1-based index and total; 0 outside the count', () => {
    const loading: FlowState = { phase: 'loading', ctx: null };
    navigation.dispatch({ type: 'session_loaded', session });
    const step = navigation.state;
    expect(changeDetail(loading, step)).to.deep.equal({
      from: 'loading',
      to: 'consent',
      step: 'consent',
      index: 1,
      total: 3,
    });
    expect(changeDetail(step, { phase: 'result', status: 'rejected', ctx: null })).to.deep.equal({
      from: 'consent',
      to: 'result_rejected',
      step: null,
      index: 0,
      total: 0,
    });
  });
});
