import type { components, paths } from './openapi-types.ts';
import { type ProblemDetails, VerifyApiError } from './verify-api-error.ts';

/*
 * The wire types of the end-user endpoints (`/v1/verify/*`, API.md §9), named for the widget: each is
 * read off `openapi-types.ts`, which `npm run generate:client` generates from the server's zod routes
 * (a test fails when it drifts), so the widget and the server share one definition. Type-only: nothing
 * of it reaches the bundle. Clients must ignore unknown fields, and code reading an enum falls back on
 * values it does not know.
 */
type Schemas = components['schemas'];
type UploadForm = paths['/v1/verify/documents']['post']['requestBody']['content']['multipart/form-data'];

type WireDocumentPrefill = NonNullable<Schemas['VerifyPrefill']['id_document']>;
/**
 * The details the server read from the identity document (machine-readable zone or barcode). When
 * `details_required` is false the server takes them as the end-user's details and `PUT details` is
 * optional; details sent anyway are compared with these. Read leniently: a detail left out is one the
 * person types.
 */
export type DocumentPrefill = Omit<WireDocumentPrefill, 'details'> & {
  details: Partial<WireDocumentPrefill['details']>;
};
/** `GET /v1/verify/session`: the public view, no personal data, with what the form can be prefilled with. */
export type SessionView = Omit<Schemas['VerifySessionView'], 'prefill'> & {
  prefill: { id_document?: DocumentPrefill };
};
/** `POST /v1/verify/complete` →: the public view without `prefill`. */
export type VerifySession = Schemas['VerifySession'];
export type SessionStatus = SessionView['status'];
/** The values of `required_steps` (API.md §4). */
export type StepId = SessionView['required_steps'][number];
export type SessionStepView = SessionView['steps'][number];
/** Per upload step, the document types the session accepts. */
export type AcceptedDocumentTypes = SessionView['accepted_document_types'];
/** Tenant colours; applied as `--idv-*` custom properties, never as raw CSS. */
export type TenantBranding = SessionView['tenant']['branding'];
/** The fields of the identity document's details form. */
export type DetailField = keyof WireDocumentPrefill['details'];
export type UploadStep = UploadForm['step'];
export type Side = NonNullable<UploadForm['side']>;
/** `POST /v1/verify/documents` → */
export type UploadResult = Schemas['VerifyUpload'];
export type QualityIssue = UploadResult['quality']['issues'][number];
/** `reading` of an `id_document` upload: what the server could read off that photo. */
export type DocumentReadingSummary = NonNullable<UploadResult['reading']>;
export type ConsentBody = Schemas['VerifyConsentRequest'];
export type DetailsBody = Schemas['VerifyDetailsRequest'];
export type IdDocumentDetails = Extract<DetailsBody, { step: 'id_document' }>;
export type BusinessDetails = Extract<DetailsBody, { step: 'business_details' }>;
export type LivenessChallenge = Schemas['LivenessChallenge'];
/** Liveness actions: the server's today, and any it may add (those get a generic prompt). */
export type LivenessAction = LivenessChallenge['actions'][number] | (string & {});
type LivenessAttempt = Schemas['VerifyLivenessAttempt'];
/** Why a liveness attempt was sent back (API.md §9); new reasons may come, worded by `user_message`. */
export type LivenessRetryReason = NonNullable<LivenessAttempt['reason']> | (string & {});
/** `POST /v1/verify/liveness` →, its `reason` and `action` open to values a newer server may send. */
export type LivenessResult = Omit<LivenessAttempt, 'reason' | 'action'> & {
  reason?: LivenessRetryReason;
  action?: LivenessAction;
};
export type SandboxOutcome = NonNullable<Schemas['VerifyCompleteRequest']['sandbox']>['outcome'];

/*
 * Not wire shapes: the wire carries `document_type` as a string; these are the types the widget offers,
 * labels and draws a guide frame for. Identity documents for `step=id_document`; only `passport` is
 * front-only.
 */
export type IdDocumentType = 'passport' | 'id_card' | 'driving_licence' | 'residence_permit';
export type AddressDocumentType = 'utility_bill' | 'bank_statement' | 'tax_document';
export type BusinessDocumentType = 'registration_certificate';
export type DocumentType = IdDocumentType | AddressDocumentType | BusinessDocumentType;

/**
 * Not in the server's document: fields read off the document that a server may send with an upload
 * answer (`extracted`; older servers and mocks did). Today's server sends `reading` with the upload and
 * the values in the session's `prefill`. Read when present, to prefill the confirm form.
 */
export type ExtractedFields = Partial<Omit<IdDocumentDetails, 'step'>>;

/** The widget's view of `POST /v1/verify/handoff`: the link to show as a QR code. */
export interface HandoffLink {
  url: string;
  expires_at?: string;
}

/** The `/v1/verify/*` paths, without their common prefix. */
type VerifyPath = keyof paths extends infer P ? (P extends `/v1/verify/${infer S}` ? S : never) : never;
/** The success body of `method` on `/v1/verify/${path}`, read off the OpenAPI paths. */
type ResponseOf<
  S extends VerifyPath,
  M extends keyof paths[`/v1/verify/${S}`],
> = paths[`/v1/verify/${S}`][M] extends {
  responses: infer R;
}
  ? {
      [C in keyof R & (200 | 201)]: R[C] extends { content: { 'application/json': infer B } } ? B : never;
    }[keyof R & (200 | 201)]
  : never;

export interface DocumentUpload {
  step: UploadStep;
  document_type: DocumentType;
  issuing_country?: string;
  side?: Side;
  image: Blob;
}

/** What the widget keeps of an upload answer, with the fields read off the photo (to prefill the form). */
export interface UploadOutcome extends Pick<UploadResult, 'upload_id' | 'quality'> {
  /** Attempts left at the step; a photo with quality issues uses none (API.md §4). */
  attempts_remaining?: UploadResult['attempts_remaining'];
  /** `rejected` once the last attempt was used. */
  session_status?: UploadResult['session_status'];
  extracted: ExtractedFields | null;
  /** For an identity document: whether its zone or barcode was read; null when the server does not say. */
  reading: DocumentReadingSummary | null;
}

/**
 * What the widget needs from the server. The element takes any implementation through its `api`
 * property, which is how component tests inject a fake at the boundary.
 */
export interface VerifyApiClient {
  getSession(signal?: AbortSignal): Promise<SessionView>;
  giveConsent(body: ConsentBody): Promise<void>;
  uploadDocument(upload: DocumentUpload, signal?: AbortSignal): Promise<UploadOutcome>;
  putDetails(body: DetailsBody): Promise<void>;
  createLivenessChallenge(): Promise<LivenessChallenge>;
  submitLiveness(challengeId: string, frames: Blob[]): Promise<LivenessResult>;
  /** `sandboxOutcome` only for sandbox sessions; sent as `{sandbox: {outcome}}`, the create body's shape. */
  complete(sandboxOutcome?: SandboxOutcome): Promise<VerifySession | null>;
  createHandoff(): Promise<HandoffLink>;
}

export interface VerifyApiOptions {
  /** Origin (plus optional path prefix) the `/v1` routes live under. */
  apiBase: string;
  token: string;
  /** Defaults to the global fetch, looked up per call (SSR-safe, and lets tests stub it). */
  fetch?: typeof fetch;
}

/**
 * The fetch-based client for `/v1/verify/*`, authenticated by `x-verify-token`.
 *
 * @example
 *   const api = new VerifyApi({ apiBase: 'https://verify.example.com', token });
 *   const session = await api.getSession();
 */
export class VerifyApi implements VerifyApiClient {
  readonly #base: string;
  readonly #token: string;
  readonly #fetch: typeof fetch | undefined;
  /**
   * One Idempotency-Key per captured image and purpose: when a phone loses the answer to an upload and
   * the end-user taps "retry", the server replays the first answer instead of storing a second copy or
   * spending a second attempt. A new capture is a new Blob, hence a new key.
   */
  readonly #uploadKeys = new WeakMap<Blob, Map<string, string>>();

  constructor(options: VerifyApiOptions) {
    this.#base = options.apiBase.replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch;
  }

  #uploadKey(image: Blob, purpose: string): string {
    let keys = this.#uploadKeys.get(image);
    if (!keys) {
      keys = new Map();
      this.#uploadKeys.set(image, keys);
    }
    let key = keys.get(purpose);
    if (!key) {
      // getRandomValues, not randomUUID: the latter needs a secure context, and phones testing against a
      // development server on the LAN are not one.
      key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
        byte.toString(16).padStart(2, '0'),
      ).join('');
      keys.set(purpose, key);
    }
    return key;
  }

  /** One call, typed by its OpenAPI path and method: the answer is that operation's success body. */
  async #request<S extends VerifyPath, M extends keyof paths[`/v1/verify/${S}`] & string>(
    method: M,
    path: S,
    body?: unknown,
    signal?: AbortSignal,
    idempotencyKey?: string,
  ): Promise<ResponseOf<S, M>> {
    const headers: Record<string, string> = { 'x-verify-token': this.#token, accept: 'application/json' };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      const doFetch = this.#fetch ?? globalThis.fetch;
      // credentials 'omit': the token is the only credential; no cookies cross to the API origin.
      response = await doFetch(`${this.#base}/v1/verify/${path}`, {
        method,
        headers,
        body: payload,
        signal,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new VerifyApiError(0, {
        code: 'network_error',
        detail: String((error as Error)?.message ?? error),
      });
    }
    const text = await response.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) {
      const retry = Number(response.headers.get('retry-after'));
      const problem = json && typeof json === 'object' ? (json as ProblemDetails) : {};
      throw new VerifyApiError(response.status, problem, Number.isFinite(retry) && retry > 0 ? retry : null);
    }
    return json as ResponseOf<S, M>;
  }

  getSession(signal?: AbortSignal): Promise<SessionView> {
    return this.#request('get', 'session', undefined, signal);
  }

  async giveConsent(body: ConsentBody): Promise<void> {
    await this.#request('post', 'consent', body);
  }

  async uploadDocument(upload: DocumentUpload, signal?: AbortSignal): Promise<UploadOutcome> {
    const form = new FormData();
    form.set('step', upload.step);
    form.set('document_type', upload.document_type);
    if (upload.issuing_country) form.set('issuing_country', upload.issuing_country);
    if (upload.side) form.set('side', upload.side);
    form.set('image', upload.image, fileName(upload.image, upload.side ?? 'document'));
    // `extracted` is not in the server's document (see ExtractedFields): read when a server sends it.
    const result: UploadResult & { extracted?: ExtractedFields; extracted_fields?: ExtractedFields } =
      await this.#request(
        'post',
        'documents',
        form,
        signal,
        this.#uploadKey(
          upload.image,
          `${upload.step}:${upload.document_type}:${upload.side ?? ''}:${upload.issuing_country ?? ''}`,
        ),
      );
    return {
      upload_id: result.upload_id,
      quality: { ok: result.quality?.ok !== false, issues: result.quality?.issues ?? [] },
      extracted: result.extracted ?? result.extracted_fields ?? null,
      reading: result.reading ?? null,
      ...(typeof result.attempts_remaining === 'number'
        ? { attempts_remaining: result.attempts_remaining }
        : {}),
      ...(result.session_status ? { session_status: result.session_status } : {}),
    };
  }

  async putDetails(body: DetailsBody): Promise<void> {
    await this.#request('put', 'details', body);
  }

  createLivenessChallenge(): Promise<LivenessChallenge> {
    return this.#request('post', 'liveness/challenge', {});
  }

  submitLiveness(challengeId: string, frames: Blob[]): Promise<LivenessResult> {
    const form = new FormData();
    form.set('challenge_id', challengeId);
    frames.forEach((frame, i) => {
      form.append('frames', frame, fileName(frame, `frame-${i + 1}`));
    });
    const first = frames[0];
    return this.#request(
      'post',
      'liveness',
      form,
      undefined,
      first ? this.#uploadKey(first, `liveness:${challengeId}`) : undefined,
    );
  }

  complete(sandboxOutcome?: SandboxOutcome): Promise<VerifySession | null> {
    return this.#request('post', 'complete', sandboxOutcome ? { sandbox: { outcome: sandboxOutcome } } : {});
  }

  async createHandoff(): Promise<HandoffLink> {
    const result = await this.#request('post', 'handoff', {});
    const url = result.handoff_url;
    if (!url) throw new VerifyApiError(502, { code: 'invalid_response', detail: 'handoff link missing' });
    return { url, ...(result.expires_at ? { expires_at: result.expires_at } : {}) };
  }
}

function fileName(blob: Blob, base: string): string {
  const ext = blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg';
  return `${base}.${ext}`;
}
