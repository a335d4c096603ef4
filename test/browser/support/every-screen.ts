import type { FlowContext, FlowState } from '../../../src/flow/flow-types.ts';

/**
 * Every screen the end-user can meet once a session has loaded, as the flow state that shows it, for the
 * suites that check each one (axe, reflow at 320 px). `ctx` decides what the step screens offer.
 */
export function everyScreen(ctx: FlowContext): [string, FlowState][] {
  return [
    ['consent', { phase: 'step', screen: 'consent', ctx }],
    ['business details', { phase: 'step', screen: 'business_details', ctx }],
    ['business document', { phase: 'step', screen: 'business_document', ctx }],
    ['document type', { phase: 'step', screen: 'document_type', ctx }],
    ['document front (camera denied, upload)', { phase: 'step', screen: 'document_front', ctx }],
    ['document back', { phase: 'step', screen: 'document_back', ctx }],
    ['document details', { phase: 'step', screen: 'document_details', ctx }],
    ['liveness', { phase: 'step', screen: 'liveness', ctx }],
    ['proof of address', { phase: 'step', screen: 'proof_of_address', ctx }],
    ['review (sandbox)', { phase: 'step', screen: 'review', ctx }],
    ['submitting', { phase: 'submitting', ctx }],
    ['processing', { phase: 'result', status: 'processing', ctx }],
    ['approved', { phase: 'result', status: 'approved', ctx }],
    ['rejected', { phase: 'result', status: 'rejected', ctx }],
    ['review required', { phase: 'result', status: 'review_required', ctx }],
    ['cancelled', { phase: 'result', status: 'cancelled', ctx }],
    ['offline', { phase: 'offline', resume: { phase: 'loading', ctx } }],
    ['link expired', { phase: 'expired', reason: 'token_expired', ctx }],
    ['session expired', { phase: 'expired', reason: 'session_expired', ctx }],
  ];
}
