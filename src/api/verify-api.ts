import { type ProblemDetails, VerifyApiError } from './verify-api-error.ts';
import type {
  DetailsBody,
  DocumentReadingSummary,
  DocumentType,
  ExtractedFields,
  HandoffLink,
  LivenessChallenge,
  LivenessResult,
  SandboxOutcome,
  SessionView,
  Side,
  UploadResult,
  UploadStep,
} from './verify-types.ts';

export interface ConsentBody {
  accepted: boolean;
  consent_version: string;
  locale: string;
}

export interface DocumentUpload {
  step: UploadStep;
  document_type: DocumentType;
  issuing_country?: string;
  side?: Side;
  image: Blob;
}

/** An upload answer with the fields the server read, when it sends them (used to prefill the form). */
export interface UploadOutcome extends UploadResult {
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
  complete(sandboxOutcome?: SandboxOutcome): Promise<SessionView | null>;
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

  async #request<T>(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    idempotencyKey?: string,
  ): Promise<T> {
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
    return json as T;
  }

  getSession(signal?: AbortSignal): Promise<SessionView> {
    return this.#request('GET', 'session', undefined, signal);
  }

  async giveConsent(body: ConsentBody): Promise<void> {
    await this.#request('POST', 'consent', body);
  }

  async uploadDocument(upload: DocumentUpload, signal?: AbortSignal): Promise<UploadOutcome> {
    const form = new FormData();
    form.set('step', upload.step);
    form.set('document_type', upload.document_type);
    if (upload.issuing_country) form.set('issuing_country', upload.issuing_country);
    if (upload.side) form.set('side', upload.side);
    form.set('image', upload.image, fileName(upload.image, upload.side ?? 'document'));
    const result = await this.#request<
      UploadResult & {
        extracted?: ExtractedFields;
        extracted_fields?: ExtractedFields;
        reading?: DocumentReadingSummary;
      }
    >(
      'POST',
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
    await this.#request('PUT', 'details', body);
  }

  createLivenessChallenge(): Promise<LivenessChallenge> {
    return this.#request('POST', 'liveness/challenge', {});
  }

  submitLiveness(challengeId: string, frames: Blob[]): Promise<LivenessResult> {
    const form = new FormData();
    form.set('challenge_id', challengeId);
    frames.forEach((frame, i) => {
      form.append('frames', frame, fileName(frame, `frame-${i + 1}`));
    });
    const first = frames[0];
    return this.#request(
      'POST',
      'liveness',
      form,
      undefined,
      first ? this.#uploadKey(first, `liveness:${challengeId}`) : undefined,
    );
  }

  complete(sandboxOutcome?: SandboxOutcome): Promise<SessionView | null> {
    return this.#request('POST', 'complete', sandboxOutcome ? { sandbox: { outcome: sandboxOutcome } } : {});
  }

  async createHandoff(): Promise<HandoffLink> {
    const result = await this.#request<Partial<HandoffLink> & { handoff_url?: string; verify_url?: string }>(
      'POST',
      'handoff',
      {},
    );
    const url = result.url ?? result.handoff_url ?? result.verify_url;
    if (!url) throw new VerifyApiError(502, { code: 'invalid_response', detail: 'handoff link missing' });
    return { url, ...(result.expires_at ? { expires_at: result.expires_at } : {}) };
  }
}

function fileName(blob: Blob, base: string): string {
  const ext = blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg';
  return `${base}.${ext}`;
}
