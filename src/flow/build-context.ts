import type { IdDocumentType, Side, StepId } from '../api/verify-api.ts';
import type { CaptureMode, FlowContext, FlowSession, Screen } from './flow-types.ts';

/**
 * The order an end-user does the steps in, whatever order the server lists them: consent first (nothing
 * may be collected before it), the business before the person who represents it, the selfie after
 * the document it is matched against.
 */
export const STEP_ORDER: readonly StepId[] = [
  'consent',
  'business_details',
  'business_document',
  'id_document',
  'liveness',
  'proof_of_address',
];

export const ALL_ID_DOCUMENT_TYPES: readonly IdDocumentType[] = [
  'passport',
  'id_card',
  'driving_licence',
  'residence_permit',
];

/** Sides to capture per identity document (API.md §9: passport is front only). */
export function sidesOf(type: IdDocumentType): readonly Side[] {
  return type === 'passport' ? ['front'] : ['front', 'back'];
}

const isStep = (value: unknown): value is StepId => STEP_ORDER.includes(value as StepId);

/**
 * Builds the flow context from the session view. Tolerant of a view that only lists `steps`, and of
 * unknown step or document names (ignored, per the API's "clients ignore unknown values").
 *
 * @example
 *   buildContext({ status: 'created', required_steps: ['id_document', 'consent'] }).steps
 *   // → ['consent', 'id_document']
 */
export function buildContext(session: FlowSession, previous?: FlowContext | null): FlowContext {
  const listed = session.required_steps ?? session.steps?.map((s) => s.step) ?? [];
  const steps = STEP_ORDER.filter((step) => listed.includes(step));
  const completed = (session.steps ?? [])
    .filter((s) => s.status === 'completed' && isStep(s.step) && steps.includes(s.step))
    .map((s) => s.step);
  const offered = session.accepted_document_types;
  const idTypes = (Array.isArray(offered) ? offered : offered?.id_document) ?? [];
  const accepted = idTypes.filter((t): t is IdDocumentType =>
    (ALL_ID_DOCUMENT_TYPES as readonly string[]).includes(t),
  );
  const documentTypes = accepted.length > 0 ? accepted : [...ALL_ID_DOCUMENT_TYPES];
  const kept = previous?.documentType;
  const captureMode: CaptureMode = previous?.captureMode ?? 'camera';
  return {
    steps,
    completed,
    documentTypes,
    // A single accepted type needs no choice.
    documentType:
      kept && documentTypes.includes(kept) ? kept : documentTypes.length === 1 ? documentTypes[0]! : null,
    captureMode,
    cameraIssue: previous?.cameraIssue ?? null,
    sandbox: session.sandbox === true,
  };
}

/** The first screen of a step. */
export function firstScreenOf(step: StepId, ctx: FlowContext): Screen {
  if (step !== 'id_document') return step;
  return ctx.documentTypes.length === 1 ? 'document_front' : 'document_type';
}

/** The first screen of the first step not yet done, else review. */
export function nextScreen(ctx: FlowContext): Screen {
  const step = ctx.steps.find((s) => !ctx.completed.includes(s));
  return step ? firstScreenOf(step, ctx) : 'review';
}

/** The step a screen belongs to (`review` is its own). */
export function stepOfScreen(screen: Screen): StepId | 'review' {
  switch (screen) {
    case 'document_type':
    case 'document_front':
    case 'document_back':
    case 'document_details':
      return 'id_document';
    default:
      return screen;
  }
}

/**
 * "Step X of Y" numbers: the required steps plus review. Screens inside the document step share its
 * number so the count matches what the end-user was told at the start.
 */
export function progressOf(screen: Screen, ctx: FlowContext): { current: number; total: number } {
  const total = ctx.steps.length + 1;
  const step = stepOfScreen(screen);
  const current = step === 'review' ? total : ctx.steps.indexOf(step) + 1;
  return { current, total };
}
