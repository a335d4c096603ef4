import sharp from 'sharp';

/** What the tenant's backend receives from `POST /v1/sessions` (seed 2.2), as far as the tests need. */
export interface CreatedSession {
  session_id: string;
  verify_url: string;
  status: string;
  required_steps: string[];
}

/** One stored upload as `GET /v1/sessions/:id/evidence` lists it, plus what the stored bytes really are. */
export interface StoredUpload {
  upload_id: string;
  kind: 'document' | 'liveness_frame';
  step: string;
  document_type: string | null;
  side: 'front' | 'back' | null;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  quality: { ok: boolean; issues: string[]; sharpness: number; glare_ratio: number; brightness: number };
  /** Read from the bytes `GET /v1/sessions/:id/evidence/:upload_id` streams, not from the listing. */
  stored: { format: string | null; bytes: number; width: number | null; height: number | null };
}

/** Answer of a tenant call: status plus the JSON (or problem) body, for the browser test to assert on. */
export interface TenantAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/**
 * The tenant's server side in the browser end-to-end tests: every call that needs the API key happens
 * here, in Node, as a real integration does; the page only ever sees the `verify_url`.
 *
 * @example
 *   const tenant = new TenantBackend(server.baseUrl, server.sandboxKey);
 *   const { body } = await tenant.createSession({ country: 'FRA', flow: 'user', tier: 'tier2' });
 */
export class TenantBackend {
  readonly #baseUrl: string;
  readonly #key: string;

  constructor(baseUrl: string, key: string) {
    this.#baseUrl = baseUrl;
    this.#key = key;
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<TenantAnswer<T>> {
    const response = await fetch(`${this.#baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': this.#key,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /** `POST /v1/sessions`; throws unless 201, since every test starts from a session. */
  async createSession(body: Record<string, unknown>): Promise<CreatedSession> {
    const answer = await this.#call<CreatedSession>('POST', '/v1/sessions', body);
    if (answer.status !== 201) {
      throw new Error(`POST /v1/sessions answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  getSession(id: string): Promise<TenantAnswer> {
    return this.#call('GET', `/v1/sessions/${encodeURIComponent(id)}`);
  }

  result(id: string): Promise<TenantAnswer> {
    return this.#call('GET', `/v1/sessions/${encodeURIComponent(id)}/result`);
  }

  /** `POST /v1/sandbox/sessions/:id/simulate`. */
  simulate(id: string, action: string): Promise<TenantAnswer> {
    return this.#call('POST', `/v1/sandbox/sessions/${encodeURIComponent(id)}/simulate`, { action });
  }

  /** `POST /v1/sessions/:id/verify-url`: a fresh link; the old token stops working. */
  newVerifyUrl(id: string): Promise<TenantAnswer> {
    return this.#call('POST', `/v1/sessions/${encodeURIComponent(id)}/verify-url`);
  }

  /**
   * Every upload of the session with the stored bytes read back through the evidence endpoint and
   * decoded by sharp (format and pixel size come from the image itself, not from what the server
   * recorded about it).
   */
  async evidence(id: string): Promise<StoredUpload[]> {
    const list = await this.#call<{ data: Omit<StoredUpload, 'stored'>[] }>(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/evidence?limit=100`,
    );
    if (list.status !== 200) {
      throw new Error(`GET evidence answered ${list.status}: ${JSON.stringify(list.body)}`);
    }
    return Promise.all(
      list.body.data.map(async (upload) => {
        const response = await fetch(
          `${this.#baseUrl}/v1/sessions/${encodeURIComponent(id)}/evidence/${encodeURIComponent(upload.upload_id)}`,
          { headers: { 'x-api-key': this.#key } },
        );
        if (response.status !== 200) throw new Error(`GET evidence file answered ${response.status}`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        const meta = await sharp(bytes)
          .metadata()
          .catch(() => null);
        return {
          ...upload,
          stored: {
            format: meta?.format ?? null,
            bytes: bytes.byteLength,
            width: meta?.width ?? null,
            height: meta?.height ?? null,
          },
        };
      }),
    );
  }
}
