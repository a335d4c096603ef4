import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

import type { WebhookEvent } from './webhook-events.ts';

export type { WebhookEvent };

export type WebhookVerificationErrorCode =
  | 'invalid_secret'
  | 'missing_header'
  | 'invalid_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'invalid_payload';

/** A delivery that must not be trusted. Answer it with 400; the message never holds a signature. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, against replays; default 300 s. */
  toleranceSeconds?: number;
  /** The time to compare the timestamp with; default now. */
  now?: Date;
  /**
   * Also accept a delivery signed only with the seed's `x-service-signature` (an HMAC of the body alone)
   * when it has no `webhook-*` headers. Off by default, and keep it off: that signature carries no
   * timestamp and no id, so anyone who captured one delivery can send it again, unchanged, for ever, and
   * it verifies. Turn it on only for a sender that cannot send the Standard Webhooks headers, and then
   * refuse an `event_id` you have already processed (that stops a replay of the same event, not a
   * replay of an event you have since deleted from your dedupe store).
   */
  allowReplayableServiceSignature?: boolean;
}

const SECRET_PREFIX = 'whsec_';

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return (Array.isArray(value) ? value.join(' ') : value) || undefined;
}

function secretsOf(secret: string | readonly string[]): string[] {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (
    secrets.length === 0 ||
    secrets.some((item) => !item.startsWith(SECRET_PREFIX) || item.length <= SECRET_PREFIX.length)
  ) {
    throw new WebhookVerificationError(
      'invalid_secret',
      'Pass the whole `whsec_…` secret shown when the endpoint was created or rotated (or several, during a rotation).',
    );
  }
  return secrets;
}

/** The Standard Webhooks key: the bytes the base64 after `whsec_` stands for. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** Compares in time independent of where the bytes differ, so a signature cannot be guessed byte by byte. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseEvent(body: string): WebhookEvent {
  try {
    const value: unknown = JSON.parse(body);
    if (value && typeof value === 'object' && typeof (value as WebhookEvent).event === 'string') {
      return value as WebhookEvent;
    }
  } catch {
    // reported below
  }
  throw new WebhookVerificationError(
    'invalid_payload',
    'The signature matches but the body is not a webhook event.',
  );
}

function mismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    "No signature matches: use this endpoint's secret and the raw body exactly as received (not re-serialised JSON).",
  );
}

function verifyStandard(
  body: string,
  headers: WebhookHeaders,
  secrets: string[],
  options: VerifyWebhookOptions,
): void {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signature = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) {
    throw new WebhookVerificationError(
      'missing_header',
      'A Standard Webhooks delivery carries `webhook-id`, `webhook-timestamp` and `webhook-signature`; pass every request header through.',
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError('invalid_header', '`webhook-timestamp` must be whole unix seconds.');
  }
  const age = Math.floor((options.now ?? new Date()).getTime() / 1000) - Number(timestamp);
  const tolerance = options.toleranceSeconds ?? 300;
  if (age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `The delivery was signed ${age} s ago, beyond the ${tolerance} s tolerance.`,
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `The delivery is dated ${-age} s ahead: check your clock.`,
    );
  }
  // One `v1,<base64>` entry per active secret, space-separated; other versions are skipped.
  const presented = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  if (presented.length === 0) {
    throw new WebhookVerificationError('invalid_header', '`webhook-signature` holds no `v1,<base64>` entry.');
  }
  for (const secret of secrets) {
    const expected = createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest();
    if (presented.some((candidate) => sameBytes(candidate, expected))) return;
  }
  throw mismatch();
}

function verifyService(body: string, headers: WebhookHeaders, secrets: string[]): void {
  // `x-service-signature-previous` is signed with the secret before a rotation.
  const presented = ['x-service-signature', 'x-service-signature-previous']
    .map((name) => headerOf(headers, name)?.trim().toLowerCase())
    .filter((value): value is string => value !== undefined && /^[0-9a-f]{64}$/.test(value))
    .map((value) => Buffer.from(value, 'hex'));
  if (presented.length === 0) {
    throw new WebhookVerificationError(
      'invalid_header',
      '`x-service-signature` must be 64 lowercase hex digits.',
    );
  }
  for (const secret of secrets) {
    // Keyed with the whole secret string, prefix included, as UTF-8 bytes.
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest();
    if (presented.some((candidate) => sameBytes(candidate, expected))) return;
  }
  throw mismatch();
}

/**
 * Checks that a delivery comes from id-verify and answers its event. Pass the raw body exactly as
 * received, the request headers, and your endpoint secret, or several during a rotation (the current and
 * the previous). Requires the timestamped Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) within `toleranceSeconds` of now. Throws {@link WebhookVerificationError} when the
 * delivery must not be trusted. Deliveries are at least once: dedupe on `webhook-id` (the `event_id`).
 *
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.IDV_WEBHOOK_SECRET!);
 * if (await alreadyProcessed(event.event_id)) return new Response(null, { status: 200 });
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const secrets = secretsOf(secret);
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  // The timestamped scheme is required unless the caller opted out of replay protection: falling back
  // to `x-service-signature` whenever the `webhook-*` headers are absent would let anyone replay a
  // captured delivery by dropping them.
  if (headerOf(headers, 'webhook-signature') !== undefined) {
    verifyStandard(body, headers, secrets, options);
  } else if (
    options.allowReplayableServiceSignature === true &&
    headerOf(headers, 'x-service-signature') !== undefined
  ) {
    verifyService(body, headers, secrets);
  } else {
    throw new WebhookVerificationError(
      'missing_header',
      'A delivery carries `webhook-id`, `webhook-timestamp` and `webhook-signature`: pass every request header through. (A delivery signed only with `x-service-signature` is refused: it can be replayed.)',
    );
  }
  return parseEvent(body);
}

export interface SignTestWebhookOptions {
  /** `webhook-id`; default a random `evt_test_…`, or the payload's `event_id`. */
  id?: string;
  /** Signing time; default now. */
  timestamp?: Date;
  /** More secrets that sign too (Standard Webhooks only), as during a rotation. */
  additionalSecrets?: readonly string[];
}

/**
 * Signs a payload the way id-verify signs deliveries (both schemes), for your own tests of your webhook
 * handler. Send `body` byte for byte with `headers`.
 *
 * @example
 * const { body, headers } = signTestWebhook({ event: 'session.approved', session_id: 'sess_1' }, secret);
 * await fetch('http://localhost:8080/webhooks/id-verify', { method: 'POST', body, headers });
 */
export function signTestWebhook(
  payload: Partial<WebhookEvent> | string,
  secret: string,
  options: SignTestWebhookOptions = {},
): { body: string; headers: Record<string, string> } {
  const [current, ...previous] = secretsOf([secret, ...(options.additionalSecrets ?? [])]) as [
    string,
    ...string[],
  ];
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const eventId = typeof payload === 'string' ? undefined : payload.event_id;
  const id = options.id ?? eventId ?? `evt_test_${randomUUID().replaceAll('-', '')}`;
  const timestamp = Math.floor((options.timestamp ?? new Date()).getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-signature': createHmac('sha256', Buffer.from(current, 'utf8')).update(body).digest('hex'),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': [current, ...previous]
      .map(
        (key) =>
          `v1,${createHmac('sha256', standardKey(key)).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
      )
      .join(' '),
  };
  if (previous[0]) {
    headers['x-service-signature-previous'] = createHmac('sha256', Buffer.from(previous[0], 'utf8'))
      .update(body)
      .digest('hex');
  }
  return { body, headers };
}
