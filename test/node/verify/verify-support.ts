import assert from 'node:assert/strict';
import { documentJpeg, faceFrameJpeg } from '../evidence/synthetic-images.ts';
import { json, TEST_BASE_URL, type TestHarness } from '../support/test-app.ts';

export interface VerifySession {
  sessionId: string;
  token: string;
}

/** Creates a session with the tenant's key and returns its id and the verify token from its URL. */
export async function createVerifySession(
  h: TestHarness,
  body: Record<string, unknown> = {},
  options: { key?: string } = {},
): Promise<VerifySession> {
  const response = await h.call('POST', '/v1/sessions', {
    key: options.key ?? h.tenant.sandboxKey,
    body: { country: 'DEU', flow: 'user', tier: 'tier2', ...body },
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  const created = await json(response);
  return {
    sessionId: created['session_id'],
    token: String(created['verify_url']).split('/verify/')[1] as string,
  };
}

/** A session whose end-user has already accepted the consent step: where most end-user tests start. */
export async function createConsentedSession(
  h: TestHarness,
  body: Record<string, unknown> = {},
): Promise<VerifySession> {
  const session = await createVerifySession(h, body);
  const consent = await verifyCall(h, 'POST', '/v1/verify/consent', {
    token: session.token,
    body: { accepted: true, consent_version: 'v1' },
  });
  assert.equal(consent.status, 200);
  return session;
}

export interface VerifyCallOptions {
  token?: string;
  body?: unknown;
  form?: FormData;
  /** A body sent as these bytes, with the content type `headers` give. */
  raw?: Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

/** Calls an end-user endpoint with `x-verify-token`, a JSON body or a multipart form. */
export function verifyCall(h: TestHarness, method: string, path: string, options: VerifyCallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['x-verify-token'] = options.token;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  } else if (options.form) {
    body = options.form;
  } else if (options.raw) {
    body = options.raw;
  }
  return Promise.resolve(h.app.request(`${TEST_BASE_URL}${path}`, { method, headers, body }));
}

/** The multipart form of one document photo. */
export function documentForm(
  image: Uint8Array,
  fields: Partial<Record<'step' | 'document_type' | 'issuing_country' | 'side', string>> = {},
  filename = 'photo.jpg',
): FormData {
  const form = new FormData();
  const all = {
    step: 'id_document',
    document_type: 'id_card',
    issuing_country: 'DEU',
    side: 'front',
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.set(name, value);
  form.set('image', new File([image as Uint8Array<ArrayBuffer>], filename, { type: 'image/jpeg' }));
  return form;
}

/** The multipart form of a liveness answer. */
export function framesForm(challengeId: string, frames: readonly Uint8Array[]): FormData {
  const form = new FormData();
  form.set('challenge_id', challengeId);
  for (const [index, frame] of frames.entries()) {
    form.append(
      'frames',
      new File([frame as Uint8Array<ArrayBuffer>], `frame-${index}.jpg`, { type: 'image/jpeg' }),
    );
  }
  return form;
}

/** Images shared by the suites, made once: sharp front and back, and three distinct selfie frames. */
export async function makeImages() {
  return {
    front: await documentJpeg({ seed: 1 }),
    back: await documentJpeg({ seed: 2 }),
    frames: [await faceFrameJpeg(-0.12, 0), await faceFrameJpeg(0.12, 0), await faceFrameJpeg(0, -0.1)],
  };
}

export const ANNA = {
  step: 'id_document',
  first_name: 'Anna Maria',
  last_name: 'Eriksson',
  date_of_birth: '1974-08-12',
  nationality: 'DEU',
  document_number: 'L898902C3',
  expiry_date: '2034-04-15',
} as const;

/** A TD3 MRZ matching {@link ANNA} (passport of Utopia, expiry 2034-04-15), check digits computed. */
export function annaMrz(): string {
  return mrzTd3({
    surname: 'ERIKSSON',
    given: 'ANNA<MARIA',
    number: 'L898902C3',
    birth: '740812',
    expiry: '340415',
  });
}

function checkDigit(text: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    const value = char === '<' ? 0 : /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    sum += value * (weights[i % 3] as number);
  }
  return String(sum % 10);
}

/** Builds a valid ICAO 9303 TD3 zone (nationality UTO, sex F) from its fields. */
export function mrzTd3(fields: {
  surname: string;
  given: string;
  number: string;
  birth: string;
  expiry: string;
}) {
  const line1 = `P<UTO${fields.surname}<<${fields.given}`.padEnd(44, '<');
  const number = fields.number.padEnd(9, '<');
  const optional = '<'.repeat(14);
  const part = `${number}${checkDigit(number)}UTO${fields.birth}${checkDigit(fields.birth)}F${fields.expiry}${checkDigit(fields.expiry)}${optional}${checkDigit(optional)}`;
  const composite = `${number}${checkDigit(number)}${fields.birth}${checkDigit(fields.birth)}${fields.expiry}${checkDigit(fields.expiry)}${optional}${checkDigit(optional)}`;
  return `${line1}\n${part}${checkDigit(composite)}`;
}
