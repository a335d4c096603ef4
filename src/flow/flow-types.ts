import type {
  IdDocumentType,
  SessionStatus,
  SessionStepView,
  SessionView,
  Side,
  StepId,
} from '../api/verify-api.ts';

/** One screen of the wizard. `id_document` spans four screens; every other step is one. */
export type Screen =
  | 'consent'
  | 'document_type'
  | 'document_front'
  | 'document_back'
  | 'document_details'
  | 'liveness'
  | 'proof_of_address'
  | 'business_details'
  | 'business_document'
  | 'review';

export type CaptureMode = 'camera' | 'upload';
export type CameraIssue = 'denied' | 'unavailable';
/** Why the link no longer works: `invalid_link` was never a valid link (mistyped, cut short, revoked). */
export type ExpiryReason = 'token_expired' | 'session_expired' | 'invalid_link';

/** What the flow remembers across screens. */
export interface FlowContext {
  /** Required steps in the order the end-user does them. */
  steps: StepId[];
  completed: StepId[];
  /** The country's accepted identity documents (never empty). */
  documentTypes: IdDocumentType[];
  documentType: IdDocumentType | null;
  captureMode: CaptureMode;
  cameraIssue: CameraIssue | null;
  sandbox: boolean;
}

/** Every state but `offline`, i.e. what a network retry resumes. */
export type ResumableState =
  | { phase: 'loading'; ctx: FlowContext | null }
  | { phase: 'step'; screen: Screen; ctx: FlowContext }
  | { phase: 'submitting'; ctx: FlowContext }
  | { phase: 'result'; status: SessionStatus; ctx: FlowContext | null }
  | { phase: 'expired'; reason: ExpiryReason; ctx: FlowContext | null };

export type FlowState = ResumableState | { phase: 'offline'; resume: ResumableState };

/**
 * The flow's view of the session (SessionView): only `status` is sure. The flow also runs on views
 * with parts missing (older servers, mocks): steps without attempts, no `required_steps`, and a bare
 * `accepted_document_types` array, which means `id_document`.
 */
export type FlowSession = Pick<SessionView, 'status'> & {
  required_steps?: SessionView['required_steps'];
  steps?: (Pick<SessionStepView, 'step' | 'status'> & { attempts_remaining?: number })[];
  accepted_document_types?: SessionView['accepted_document_types'] | string[];
  sandbox?: boolean;
};

export type FlowEvent =
  | { type: 'session_loaded'; session: FlowSession }
  | { type: 'consent_given' }
  | { type: 'consent_declined' }
  | { type: 'document_type_chosen'; documentType: IdDocumentType }
  | { type: 'side_accepted'; side: Side }
  | { type: 'details_confirmed' }
  | {
      type: 'step_completed';
      step: 'liveness' | 'proof_of_address' | 'business_details' | 'business_document';
    }
  | { type: 'back' }
  | { type: 'camera_failed'; reason: CameraIssue }
  | { type: 'capture_mode_chosen'; mode: CaptureMode }
  | { type: 'submit' }
  | { type: 'status_changed'; status: SessionStatus }
  | { type: 'network_failed' }
  | { type: 'retry' }
  | { type: 'token_expired'; reason: ExpiryReason }
  | { type: 'token_replaced' };
