import { fromBase64, fromHex } from '../../crypto/encoding.ts';
import { timingSafeEqual } from '../../crypto/primitives.ts';
import { serviceSignature, signedHeaders, standardSignature } from './signature.ts';
import { standardWebhooksKey } from './webhook-secret.ts';

/** Why a delivery failed verification: branch on `code`, show `message` in your logs. */
export type WebhookVerificationErrorCode =
  | 'invalid_secret'
  | 'missing_header'
  | 'invalid_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'invalid_payload';

/** Thrown by the verification helpers; the message says what to check, never the expected signature. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}

/** A delivered event (API.md §8): thin, ids only. Ignore fields and event kinds you do not know. */
export interface WebhookEvent {
  event: string;
  event_id: string;
  created_at: string;
  environment: 'sandbox' | 'production';
  session_id?: string | null;
  identity_id?: string | null;
  decision?: string | null;
  status?: string | null;
  [field: string]: unknown;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function secretsOf(secret: string | readonly string[]): string[] {
  const list = typeof secret === 'string' ? [secret] : [...secret];
  if (list.length === 0) throw new WebhookVerificationError('invalid_secret', 'Pass at least one secret.');
  for (const item of list) {
    if (!standardWebhooksKey(item)) {
      throw new WebhookVerificationError(
        'invalid_secret',
        'The secret must be the whole `whsec_…` string shown when the webhook was created or rotated.',
      );
    }
  }
  return list;
}

function parsePayload(body: string): WebhookEvent {
  try {
    const value: unknown = JSON.parse(body);
    if (value && typeof value === 'object' && typeof (value as WebhookEvent).event === 'string') {
      return value as WebhookEvent;
    }
  } catch {
    // fall through
  }
  throw new WebhookVerificationError('invalid_payload', 'The body is signed but is not a webhook event.');
}

export interface VerifyWebhookOptions {
  /** The endpoint secret(s): pass the old and the new one while you roll a rotation out. */
  secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from now, against replays; default 300 s. */
  toleranceSeconds?: number;
  /** For tests: the time to compare the timestamp with. */
  now?: Date;
}

/**
 * Verifies a delivery by its Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`): one `v1` signature must match one of your secrets, and the timestamp must be
 * within the tolerance. Pass the raw body exactly as received (not re-serialised JSON).
 * Returns the parsed event; throws {@link WebhookVerificationError} otherwise.
 *
 * @example
 * app.post('/webhooks/id-verify', async (c) => {
 *   const event = await verifyWebhook(await c.req.text(), c.req.raw.headers, { secret: process.env.IDV_WEBHOOK_SECRET });
 *   if (await seen(event.event_id)) return c.body(null, 200); // deliveries are at least once
 *   ...
 * });
 */
export async function verifyWebhook(
  body: string,
  headers: HeaderSource,
  options: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  const secrets = secretsOf(options.secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  for (const [name, value] of [
    ['webhook-id', id],
    ['webhook-timestamp', timestamp],
    ['webhook-signature', signatures],
  ] as const) {
    if (!value) {
      throw new WebhookVerificationError(
        'missing_header',
        `The \`${name}\` header is missing. Make sure your framework passes every request header through.`,
      );
    }
  }
  if (!/^\d{1,12}$/.test(timestamp as string)) {
    throw new WebhookVerificationError('invalid_header', '`webhook-timestamp` must be whole unix seconds.');
  }
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (nowSeconds - seconds > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `\`webhook-timestamp\` is ${nowSeconds - seconds} s old, more than the ${tolerance} s tolerance: a replay, or your clock is wrong.`,
    );
  }
  if (seconds - nowSeconds > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `\`webhook-timestamp\` is ${seconds - nowSeconds} s in the future, more than the ${tolerance} s tolerance: check your clock.`,
    );
  }
  const presented = (signatures as string)
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => fromBase64(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== null);
  if (presented.length === 0) {
    throw new WebhookVerificationError('invalid_header', '`webhook-signature` holds no `v1,<base64>` entry.');
  }
  for (const secret of secrets) {
    const expected = fromBase64((await standardSignature(secret, id as string, seconds, body)).slice(3));
    if (expected && presented.some((candidate) => timingSafeEqual(candidate, expected))) {
      return parsePayload(body);
    }
  }
  throw new WebhookVerificationError(
    'signature_mismatch',
    'No signature matches: check that you use this endpoint’s secret and the raw, unmodified body.',
  );
}

/**
 * Verifies the seed's `x-service-signature` (hex HMAC-SHA256 of the raw body keyed with the whole secret
 * string), or `x-service-signature-previous` during a rotation. Its name says what it gives up: the
 * signature covers the body alone, with no timestamp and no id, so a delivery captured once verifies
 * again for ever. Use {@link verifyWebhook} (timestamped, replays refused); call this only for a sender
 * that cannot send the `webhook-*` headers, and then refuse every `event_id` you have already processed.
 *
 * @example
 * const event = await verifyServiceSignatureWithoutReplayProtection(rawBody, request.headers, { secret });
 * if (await alreadyProcessed(event.event_id)) return; // the only defence against a replay here
 */
export async function verifyServiceSignatureWithoutReplayProtection(
  body: string,
  headers: HeaderSource,
  options: Pick<VerifyWebhookOptions, 'secret'>,
): Promise<WebhookEvent> {
  const secrets = secretsOf(options.secret);
  const presented = ['x-service-signature', 'x-service-signature-previous']
    .map((name) => header(headers, name))
    .filter((value): value is string => typeof value === 'string' && value.length > 0)
    .map((value) => fromHex(value.trim().toLowerCase()))
    .filter((bytes): bytes is Uint8Array => bytes !== null);
  if (presented.length === 0) {
    throw new WebhookVerificationError(
      'missing_header',
      'The `x-service-signature` header is missing or not hex. Make sure your framework passes it through.',
    );
  }
  for (const secret of secrets) {
    const expected = fromHex(await serviceSignature(secret, body));
    if (expected && presented.some((candidate) => timingSafeEqual(candidate, expected))) {
      return parsePayload(body);
    }
  }
  throw new WebhookVerificationError(
    'signature_mismatch',
    'No signature matches: check that you use this endpoint’s secret and the raw, unmodified body.',
  );
}

/**
 * @deprecated The same function by its old name, kept so receivers built on `id-verify/webhooks` keep
 * running: use {@link verifyWebhook}, or call {@link verifyServiceSignatureWithoutReplayProtection} by the
 * name that says what it gives up.
 */
export const verifyServiceSignature = verifyServiceSignatureWithoutReplayProtection;

export interface SignTestWebhookInput {
  secret: string;
  /** The event to send; `event_id`, `created_at` and `environment` are filled in when missing. */
  payload: Partial<WebhookEvent> & { event: string };
  /** Defaults to now: pass a fixed time for a reproducible fixture. */
  timestamp?: Date;
}

/**
 * Builds a body and headers exactly as the service would sign them, for your receiver's tests.
 *
 * @example
 * const { body, headers } = await signTestWebhook({ secret, payload: { event: 'session.approved', session_id: 'sess_1' } });
 * const response = await app.request('/webhooks/id-verify', { method: 'POST', body, headers });
 */
export async function signTestWebhook(
  input: SignTestWebhookInput,
): Promise<{ body: string; headers: Record<string, string> }> {
  const timestamp = input.timestamp ?? new Date();
  const eventId = input.payload.event_id ?? `evt_test_${crypto.randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({
    event_id: eventId,
    created_at: timestamp.toISOString(),
    environment: 'sandbox',
    ...input.payload,
  });
  const signatures = await signedHeaders({
    secrets: [input.secret],
    id: eventId,
    timestampSeconds: Math.floor(timestamp.getTime() / 1000),
    body,
  });
  return { body, headers: { 'content-type': 'application/json', ...signatures } };
}
