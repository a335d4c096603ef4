import type {
  ConsentBody,
  DetailsBody,
  DocumentPrefill,
  DocumentUpload,
  HandoffLink,
  LivenessChallenge,
  LivenessResult,
  SandboxOutcome,
  SessionStepView,
  SessionView,
  StepId,
  TenantBranding,
  UploadOutcome,
  VerifyApiClient,
  VerifySession,
} from '../../../src/api/verify-api.ts';
import { type ProblemDetails, VerifyApiError } from '../../../src/api/verify-api-error.ts';

/**
 * What a test gives of a session: the fake fills in the rest as the server would (attempts per step,
 * the tenant's branding, `prefill`). A bare `accepted_document_types` array means `id_document`.
 */
export type FakeSessionInit = Partial<Omit<SessionView, 'steps' | 'tenant' | 'accepted_document_types'>> & {
  steps?: (Omit<SessionStepView, 'attempts_remaining'> & { attempts_remaining?: number })[];
  tenant?: { name: string; branding?: TenantBranding };
  accepted_document_types?: SessionView['accepted_document_types'] | string[];
  /** Decision reasons, which the widget words when a server sends them (not the server's document). */
  reasons?: { code: string; user_message?: string }[];
};

/** A liveness answer as a test queues it; the fake adds what the server always sends. */
export type FakeLivenessResult = Omit<LivenessResult, 'object' | 'session_status' | 'attempts_remaining'> & {
  attempts_remaining?: number;
};

/** The session a test described, whole, as the server sends it. */
export function fakeSession(init: FakeSessionInit = {}): SessionView {
  const required: StepId[] = init.required_steps ?? ['consent', 'id_document'];
  const { steps, tenant, accepted_document_types: accepted, ...rest } = init;
  return {
    object: 'verify_session',
    session_id: 'sess_test',
    status: 'created',
    country: 'FRA',
    flow: 'user',
    tier: 'tier1',
    required_steps: required,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    sandbox: false,
    redirect_url: null,
    prefill: {},
    ...rest,
    steps: (steps ?? required.map((step) => ({ step, status: 'pending' as const }))).map((step) => ({
      attempts_remaining: 3,
      ...step,
    })),
    tenant: { branding: {}, ...(tenant ?? { name: 'Acme Bank' }) },
    accepted_document_types: Array.isArray(accepted)
      ? { id_document: accepted }
      : (accepted ?? { id_document: ['passport', 'id_card'] }),
  };
}

export interface FakeCall {
  method: string;
  body?: unknown;
}

/**
 * An in-memory `/v1/verify/*` for component tests: behaves like the server for the happy path (steps
 * complete as evidence arrives, complete → processing → the decision on the next read) and lets a test
 * queue failures per method.
 */
export class FakeVerifyApi implements VerifyApiClient {
  session: SessionView & { reasons?: FakeSessionInit['reasons'] };
  calls: FakeCall[] = [];
  uploads: DocumentUpload[] = [];
  /** Errors to throw, per method, in order (one per call). */
  failures = new Map<string, VerifyApiError[]>();
  /** Quality issues to report for the next uploads, in order. */
  qualityIssues: UploadOutcome['quality']['issues'][] = [];
  /** Liveness answers, in order; defaults to accepted. */
  livenessResults: FakeLivenessResult[] = [];
  extracted: UploadOutcome['extracted'] = null;
  /** `reading` of identity-document uploads. */
  reading: UploadOutcome['reading'] = null;
  /**
   * What the server reads off identity-document uploads: each one puts it in the session's `prefill`,
   * and when no details are required the step is done, as the server does (it takes them from the document).
   */
  readOnUpload: DocumentPrefill | null = null;
  decision: 'approved' | 'rejected' | 'review_required' = 'approved';
  /** Attempts left per step (3, as the server gives); a failed attempt uses one, the last rejects. */
  attempts: Partial<Record<StepId, number>> = {};
  #processingReads = 0;

  constructor(session: FakeSessionInit = {}) {
    this.session = fakeSession(session);
  }

  failNext(method: string, status: number, code: string, userMessage?: string): void {
    const queue = this.failures.get(method) ?? [];
    queue.push(
      new VerifyApiError(status, {
        code,
        detail: code,
        ...(userMessage ? { user_message: userMessage } : {}),
      }),
    );
    this.failures.set(method, queue);
  }

  /** Queues a whole problem document (field errors, `seen`, …) for the next call of `method`. */
  failWith(method: string, status: number, problem: ProblemDetails): void {
    const queue = this.failures.get(method) ?? [];
    queue.push(new VerifyApiError(status, problem));
    this.failures.set(method, queue);
  }

  /** Uses one attempt at `step`, as the server does (API.md §4); the last one rejects the session. */
  #useAttempt(step: StepId): number {
    const left = Math.max(0, (this.attempts[step] ?? 3) - 1);
    this.attempts[step] = left;
    this.session = {
      ...this.session,
      ...(left === 0 ? { status: 'rejected' as const } : {}),
      steps: (this.session.steps ?? []).map((s) =>
        s.step === step ? { ...s, attempts_remaining: left } : s,
      ),
    };
    return left;
  }

  #record(method: string, body?: unknown): void {
    this.calls.push({ method, body });
    const failure = this.failures.get(method)?.shift();
    if (failure) throw failure;
  }

  #complete(step: StepId): void {
    this.session = {
      ...this.session,
      steps: (this.session.steps ?? []).map((s) => (s.step === step ? { ...s, status: 'completed' } : s)),
    };
  }

  async getSession(): Promise<SessionView> {
    this.#record('getSession');
    if (this.session.status === 'created') this.session = { ...this.session, status: 'collecting' };
    else if (this.session.status === 'processing' && ++this.#processingReads >= 1) {
      this.session = { ...this.session, status: this.decision };
    }
    return structuredClone(this.session);
  }

  async giveConsent(body: ConsentBody): Promise<void> {
    this.#record('giveConsent', body);
    if (body.accepted) this.#complete('consent');
    else this.session = { ...this.session, status: 'cancelled' };
  }

  async uploadDocument(upload: DocumentUpload): Promise<UploadOutcome> {
    this.#record('uploadDocument', upload);
    this.uploads.push(upload);
    // A refusal for capture quality costs no attempt (API.md §9), as on the server.
    const issues = this.qualityIssues.shift() ?? [];
    if (issues.length === 0 && upload.step !== 'id_document') this.#complete(upload.step);
    if (issues.length === 0 && upload.step === 'id_document' && this.readOnUpload) {
      this.session = { ...this.session, prefill: { id_document: this.readOnUpload } };
      if (!this.readOnUpload.details_required) this.#complete('id_document');
    }
    return {
      upload_id: `upl_${this.uploads.length}`,
      quality: { ok: issues.length === 0, issues },
      extracted: this.extracted,
      reading: upload.step === 'id_document' ? this.reading : null,
      attempts_remaining: this.attempts[upload.step] ?? 3,
      session_status: this.session.status,
    };
  }

  async putDetails(body: DetailsBody): Promise<void> {
    this.#record('putDetails', body);
    this.#complete(body.step);
  }

  async createLivenessChallenge(): Promise<LivenessChallenge> {
    this.#record('createLivenessChallenge');
    return {
      object: 'liveness_challenge',
      challenge_id: `chl_${this.calls.length}`,
      actions: ['turn_left', 'smile'],
      expires_at: new Date(Date.now() + 120_000).toISOString(),
    };
  }

  async submitLiveness(challengeId: string, frames: Blob[]): Promise<LivenessResult> {
    this.#record('submitLiveness', { challengeId, frames });
    const result = this.livenessResults.shift() ?? { status: 'accepted', attempts_remaining: 3 };
    if (result.status === 'accepted') {
      this.#complete('liveness');
      return {
        ...result,
        object: 'liveness_attempt',
        attempts_remaining: this.attempts.liveness ?? 3,
        session_status: this.session.status,
      };
    }
    // Frames refused for capture quality or undecodable were never judged: no attempt used.
    const free = result.reason === 'capture_quality' || result.reason === 'frame_undecodable';
    const left = free ? (this.attempts.liveness ?? 3) : this.#useAttempt('liveness');
    return {
      ...result,
      object: 'liveness_attempt',
      attempts_remaining: left,
      session_status: this.session.status,
    };
  }

  async complete(sandboxOutcome?: SandboxOutcome): Promise<VerifySession | null> {
    this.#record('complete', sandboxOutcome);
    if (sandboxOutcome) this.decision = sandboxOutcome;
    this.session = { ...this.session, status: 'processing' };
    return structuredClone(this.session);
  }

  async createHandoff(): Promise<HandoffLink> {
    this.#record('createHandoff');
    return { url: 'https://verify.example.com/verify/vt_handoff' };
  }
}

/** A 1×1 PNG: the smallest picture a browser decodes, for upload-mode tests. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A small photo file for upload-mode tests (the widget checks it decodes; the fake server does not). */
export function photoFile(name = 'photo.png'): File {
  const bytes = Uint8Array.from(atob(PIXEL_PNG), (c) => c.charCodeAt(0));
  return new File([bytes], name, { type: 'image/png' });
}

/** A file that says it is a JPEG and is not one (a renamed document, a truncated download). */
export function brokenPhotoFile(): File {
  return new File(
    [new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9])],
    'broken.jpg',
    {
      type: 'image/jpeg',
    },
  );
}
