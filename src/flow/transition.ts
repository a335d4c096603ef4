import type { SessionStatus, StepId } from '../api/verify-api.ts';
import { buildContext, nextScreen, sidesOf } from './build-context.ts';
import type { FlowContext, FlowEvent, FlowState, ResumableState, Screen } from './flow-types.ts';

/** Statuses after which the end-user has nothing left to do but wait or leave. */
const FINISHED: readonly SessionStatus[] = [
  'processing',
  'approved',
  'rejected',
  'review_required',
  'cancelled',
];

/** Statuses that end polling: the decision (or the lack of one) is final for this visit. */
export const TERMINAL_STATUSES: readonly SessionStatus[] = [
  'approved',
  'rejected',
  'review_required',
  'expired',
  'cancelled',
];

export const INITIAL_STATE: FlowState = { phase: 'loading', ctx: null };

function ctxOf(state: FlowState): FlowContext | null {
  return state.phase === 'offline' ? state.resume.ctx : state.ctx;
}

function complete(ctx: FlowContext, step: StepId): FlowContext {
  return ctx.completed.includes(step) ? ctx : { ...ctx, completed: [...ctx.completed, step] };
}

function advance(ctx: FlowContext): ResumableState {
  return { phase: 'step', screen: nextScreen(ctx), ctx };
}

function fromStatus(status: SessionStatus, ctx: FlowContext | null): ResumableState | null {
  if (status === 'expired') return { phase: 'expired', reason: 'session_expired', ctx };
  if (FINISHED.includes(status)) return { phase: 'result', status, ctx };
  return null;
}

/** Where "back" leads inside the document step; other screens have no way back (steps are saved). */
function previousScreen(screen: Screen, ctx: FlowContext): Screen | null {
  const type = ctx.documentType;
  switch (screen) {
    case 'document_front':
      return ctx.documentTypes.length > 1 ? 'document_type' : null;
    case 'document_back':
      return 'document_front';
    case 'document_details':
      return type && sidesOf(type).includes('back') ? 'document_back' : 'document_front';
    default:
      return null;
  }
}

function assertNever(value: never): never {
  throw new Error(`unhandled flow event ${JSON.stringify(value)}`);
}

/**
 * The widget's state machine: pure, no DOM, no I/O. The shell element performs the side effects (API
 * calls, camera) and reports their outcome as events. An event that does not apply to the current
 * state returns the same state object, so callers can detect a no-op with `===`.
 *
 * @example
 *   let state = INITIAL_STATE;
 *   state = transition(state, { type: 'session_loaded', session: { status: 'created', required_steps: ['consent'] } });
 *   // → { phase: 'step', screen: 'consent', ctx: … }
 */
export function transition(state: FlowState, event: FlowEvent): FlowState {
  const ctx = ctxOf(state);
  const on = (screen: Screen) => state.phase === 'step' && state.screen === screen;
  switch (event.type) {
    case 'session_loaded': {
      const next = buildContext(event.session, ctx);
      return fromStatus(event.session.status, next) ?? advance(next);
    }
    case 'consent_given':
      return on('consent') && ctx ? advance(complete(ctx, 'consent')) : state;
    case 'consent_declined':
      return on('consent') ? { phase: 'result', status: 'cancelled', ctx } : state;
    case 'document_type_chosen':
      if (!on('document_type') || !ctx?.documentTypes.includes(event.documentType)) return state;
      return { phase: 'step', screen: 'document_front', ctx: { ...ctx, documentType: event.documentType } };
    case 'side_accepted': {
      if (!ctx?.documentType) return state;
      if (event.side === 'front' && on('document_front')) {
        const screen = sidesOf(ctx.documentType).includes('back') ? 'document_back' : 'document_details';
        return { phase: 'step', screen, ctx };
      }
      if (event.side === 'back' && on('document_back'))
        return { phase: 'step', screen: 'document_details', ctx };
      return state;
    }
    case 'details_confirmed':
      return on('document_details') && ctx ? advance(complete(ctx, 'id_document')) : state;
    case 'step_completed':
      return on(event.step) && ctx ? advance(complete(ctx, event.step)) : state;
    case 'back': {
      if (state.phase !== 'step') return state;
      const screen = previousScreen(state.screen, state.ctx);
      return screen ? { ...state, screen } : state;
    }
    case 'camera_failed':
      if (state.phase !== 'step') return state;
      return { ...state, ctx: { ...state.ctx, captureMode: 'upload', cameraIssue: event.reason } };
    case 'capture_mode_chosen':
      if (state.phase !== 'step') return state;
      return { ...state, ctx: { ...state.ctx, captureMode: event.mode } };
    case 'submit':
      return on('review') && ctx ? { phase: 'submitting', ctx } : state;
    case 'status_changed': {
      if (state.phase !== 'submitting' && state.phase !== 'result') return state;
      // Back to `collecting` (a resubmission) is not handled here: the shell reloads the session view,
      // whose step list says what to redo, and sends `session_loaded`.
      return fromStatus(event.status, ctx) ?? state;
    }
    case 'network_failed':
      return state.phase === 'offline' ? state : { phase: 'offline', resume: state };
    case 'retry':
      return state.phase === 'offline' ? state.resume : state;
    case 'token_expired':
      return { phase: 'expired', reason: event.reason, ctx };
    case 'token_replaced':
      return { phase: 'loading', ctx };
    default:
      return assertNever(event);
  }
}
