import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContext, progressOf } from '../../../src/flow/build-context.ts';
import type { FlowEvent, FlowSession, FlowState } from '../../../src/flow/flow-types.ts';
import { INITIAL_STATE, transition } from '../../../src/flow/transition.ts';

const session = (over: Partial<FlowSession> = {}): FlowSession => ({
  status: 'created',
  required_steps: ['consent', 'id_document', 'liveness'],
  steps: [],
  ...over,
});

const run = (events: FlowEvent[], from: FlowState = INITIAL_STATE) => events.reduce(transition, from);
const screenOf = (state: FlowState) => (state.phase === 'step' ? state.screen : state.phase);

describe('flow: building the step plan', () => {
  it('orders steps consent first and the business before the person, whatever the server order', () => {
    const ctx = buildContext(
      session({
        required_steps: ['id_document', 'business_document', 'liveness', 'consent', 'business_details'],
      }),
    );
    assert.deepEqual(ctx.steps, [
      'consent',
      'business_details',
      'business_document',
      'id_document',
      'liveness',
    ]);
  });

  it('falls back to the steps list when required_steps is absent and ignores unknown steps', () => {
    const ctx = buildContext({
      status: 'collecting',
      steps: [
        { step: 'consent', status: 'completed' },
        { step: 'id_document', status: 'pending' },
        { step: 'telepathy' as never, status: 'pending' },
      ],
    });
    assert.deepEqual(ctx.steps, ['consent', 'id_document']);
    assert.deepEqual(ctx.completed, ['consent']);
  });

  it('limits document types to those the country accepts, all four when the view names none', () => {
    assert.deepEqual(
      buildContext(session({ accepted_document_types: ['passport', 'id_card'] })).documentTypes,
      ['passport', 'id_card'],
    );
    assert.equal(buildContext(session()).documentTypes.length, 4);
  });

  it('reads identity document types from the server view keyed by step', () => {
    const view = session({
      accepted_document_types: { id_document: ['driving_licence'], proof_of_address: ['bank_statement'] },
    });
    const ctx = buildContext(view);
    assert.deepEqual(ctx.documentTypes, ['driving_licence']);
    assert.equal(ctx.documentType, 'driving_licence');
  });

  it('counts review as the last step of "Step X of Y"', () => {
    const ctx = buildContext(session());
    assert.deepEqual(progressOf('consent', ctx), { current: 1, total: 4 });
    assert.deepEqual(progressOf('document_back', ctx), { current: 2, total: 4 });
    assert.deepEqual(progressOf('review', ctx), { current: 4, total: 4 });
  });
});

describe('flow: the happy path', () => {
  it('walks consent → type → front → back → details → liveness → review → result for an ID card', () => {
    const seen: string[] = [];
    let state: FlowState = INITIAL_STATE;
    const events: FlowEvent[] = [
      { type: 'session_loaded', session: session() },
      { type: 'consent_given' },
      { type: 'document_type_chosen', documentType: 'id_card' },
      { type: 'side_accepted', side: 'front' },
      { type: 'side_accepted', side: 'back' },
      { type: 'details_confirmed' },
      { type: 'step_completed', step: 'liveness' },
      { type: 'submit' },
      { type: 'status_changed', status: 'processing' },
      { type: 'status_changed', status: 'approved' },
    ];
    for (const event of events) {
      state = transition(state, event);
      seen.push(screenOf(state));
    }
    assert.deepEqual(seen, [
      'consent',
      'document_type',
      'document_front',
      'document_back',
      'document_details',
      'liveness',
      'review',
      'submitting',
      'result',
      'result',
    ]);
    assert.equal(state.phase === 'result' && state.status, 'approved');
  });

  it('skips the back side for a passport', () => {
    const state = run([
      { type: 'session_loaded', session: session({ steps: [{ step: 'consent', status: 'completed' }] }) },
      { type: 'document_type_chosen', documentType: 'passport' },
      { type: 'side_accepted', side: 'front' },
    ]);
    assert.equal(screenOf(state), 'document_details');
  });

  it('skips the type choice when the country accepts a single document type', () => {
    const state = run([
      { type: 'session_loaded', session: session({ accepted_document_types: ['passport'] }) },
      { type: 'consent_given' },
    ]);
    assert.equal(screenOf(state), 'document_front');
    assert.equal(state.phase === 'step' && state.ctx.documentType, 'passport');
  });

  it('resumes at the first step not yet completed', () => {
    const state = run([
      {
        type: 'session_loaded',
        session: session({
          status: 'collecting',
          steps: [
            { step: 'consent', status: 'completed' },
            { step: 'id_document', status: 'completed' },
            { step: 'liveness', status: 'pending' },
          ],
        }),
      },
    ]);
    assert.equal(screenOf(state), 'liveness');
  });

  it('runs the business steps before the representative’s document', () => {
    const state = run([
      {
        type: 'session_loaded',
        session: session({
          required_steps: ['consent', 'business_details', 'business_document', 'id_document'],
        }),
      },
      { type: 'consent_given' },
      { type: 'step_completed', step: 'business_details' },
    ]);
    assert.equal(screenOf(state), 'business_document');
  });

  it('goes to proof of address after liveness for tier3', () => {
    const state = run([
      {
        type: 'session_loaded',
        session: session({
          required_steps: ['consent', 'id_document', 'liveness', 'proof_of_address'],
          steps: [
            { step: 'consent', status: 'completed' },
            { step: 'id_document', status: 'completed' },
          ],
        }),
      },
      { type: 'step_completed', step: 'liveness' },
    ]);
    assert.equal(screenOf(state), 'proof_of_address');
  });
});

describe('flow: guards and navigation', () => {
  it('ignores events that do not belong to the current screen (same object back)', () => {
    const state = run([{ type: 'session_loaded', session: session() }]);
    assert.equal(transition(state, { type: 'details_confirmed' }), state);
    assert.equal(transition(state, { type: 'step_completed', step: 'liveness' }), state);
    assert.equal(transition(state, { type: 'submit' }), state);
    assert.equal(transition(state, { type: 'side_accepted', side: 'front' }), state);
  });

  it('refuses a document type the country does not accept', () => {
    const state = run([
      { type: 'session_loaded', session: session({ accepted_document_types: ['passport', 'id_card'] }) },
      { type: 'consent_given' },
    ]);
    assert.equal(transition(state, { type: 'document_type_chosen', documentType: 'driving_licence' }), state);
  });

  it('goes back inside the document step only', () => {
    const atBack = run([
      { type: 'session_loaded', session: session() },
      { type: 'consent_given' },
      { type: 'document_type_chosen', documentType: 'id_card' },
      { type: 'side_accepted', side: 'front' },
    ]);
    assert.equal(screenOf(atBack), 'document_back');
    assert.equal(screenOf(run([{ type: 'back' }], atBack)), 'document_front');
    assert.equal(screenOf(run([{ type: 'back' }, { type: 'back' }], atBack)), 'document_type');
    const atConsent = run([{ type: 'session_loaded', session: session() }]);
    assert.equal(transition(atConsent, { type: 'back' }), atConsent);
  });

  it('cancels when consent is declined', () => {
    const state = run([{ type: 'session_loaded', session: session() }, { type: 'consent_declined' }]);
    assert.equal(state.phase === 'result' && state.status, 'cancelled');
  });

  it('does not submit before review', () => {
    const state = run([{ type: 'session_loaded', session: session() }, { type: 'submit' }]);
    assert.equal(screenOf(state), 'consent');
  });
});

describe('flow: error states', () => {
  it('switches to upload when the camera is denied and remembers why', () => {
    const state = run([
      { type: 'session_loaded', session: session() },
      { type: 'consent_given' },
      { type: 'document_type_chosen', documentType: 'passport' },
      { type: 'camera_failed', reason: 'denied' },
    ]);
    assert.equal(state.phase === 'step' && state.ctx.captureMode, 'upload');
    assert.equal(state.phase === 'step' && state.ctx.cameraIssue, 'denied');
    assert.equal(screenOf(state), 'document_front');
  });

  it('lets the user go back to the camera after choosing upload', () => {
    const state = run([
      { type: 'session_loaded', session: session() },
      { type: 'capture_mode_chosen', mode: 'upload' },
      { type: 'capture_mode_chosen', mode: 'camera' },
    ]);
    assert.equal(state.phase === 'step' && state.ctx.captureMode, 'camera');
  });

  it('keeps the upload fallback across a session reload', () => {
    const state = run([
      { type: 'session_loaded', session: session() },
      { type: 'camera_failed', reason: 'unavailable' },
      { type: 'session_loaded', session: session() },
    ]);
    assert.equal(state.phase === 'step' && state.ctx.captureMode, 'upload');
  });

  it('returns to the exact screen after a network failure and retry', () => {
    const before = run([
      { type: 'session_loaded', session: session() },
      { type: 'consent_given' },
      { type: 'document_type_chosen', documentType: 'id_card' },
    ]);
    const offline = transition(before, { type: 'network_failed' });
    assert.equal(offline.phase, 'offline');
    assert.equal(transition(offline, { type: 'network_failed' }), offline);
    assert.equal(transition(offline, { type: 'retry' }), before);
  });

  it('shows the expired screen on token expiry and reloads when a fresh token arrives', () => {
    const state = run([
      { type: 'session_loaded', session: session() },
      { type: 'consent_given' },
      { type: 'token_expired', reason: 'token_expired' },
    ]);
    assert.equal(state.phase === 'expired' && state.reason, 'token_expired');
    const reloading = transition(state, { type: 'token_replaced' });
    assert.equal(reloading.phase, 'loading');
    const resumed = transition(reloading, {
      type: 'session_loaded',
      session: session({ steps: [{ step: 'consent', status: 'completed' }] }),
    });
    assert.equal(screenOf(resumed), 'document_type');
  });

  it('opens on the expired screen for an expired session and on the result for a decided one', () => {
    const expired = run([{ type: 'session_loaded', session: session({ status: 'expired' }) }]);
    assert.equal(expired.phase === 'expired' && expired.reason, 'session_expired');
    const decided = run([{ type: 'session_loaded', session: session({ status: 'rejected' }) }]);
    assert.equal(decided.phase === 'result' && decided.status, 'rejected');
  });

  it('expires while waiting for the decision', () => {
    const state = run([
      { type: 'session_loaded', session: session({ status: 'processing' }) },
      { type: 'status_changed', status: 'expired' },
    ]);
    assert.equal(state.phase, 'expired');
  });
});
