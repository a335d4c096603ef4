import { toBase64, toHex, utf8 } from '../../crypto/encoding.ts';
import { standardWebhooksKey } from './webhook-secret.ts';

async function hmac(key: Uint8Array<ArrayBuffer>, message: string): Promise<Uint8Array<ArrayBuffer>> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, utf8.encode(message)));
}

/**
 * The seed's `x-service-signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret
 * string (`whsec_…`) as UTF-8 bytes.
 *
 * @example
 * await serviceSignature('whsec_…', '{"event":"session.approved"}') // '5d41…'
 */
export async function serviceSignature(secret: string, body: string): Promise<string> {
  return toHex(await hmac(utf8.encode(secret), body));
}

/**
 * One Standard Webhooks signature, `v1,<base64 HMAC of "id.timestamp.body">`, keyed with the decoded part
 * after `whsec_`.
 *
 * @example
 * await standardSignature('whsec_…', 'evt_123', 1767225600, body) // 'v1,K5oZ…='
 */
export async function standardSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const key = standardWebhooksKey(secret);
  if (!key) throw new TypeError('A webhook secret starts with `whsec_` followed by base64.');
  return `v1,${toBase64(await hmac(key, `${id}.${timestampSeconds}.${body}`))}`;
}

export interface SignedHeadersInput {
  /** Active secrets, current first; during a rotation the previous one second. */
  secrets: readonly string[];
  /** The event id: stable across retries so receivers can dedupe on `webhook-id`. */
  id: string;
  timestampSeconds: number;
  body: string;
}

/**
 * Every signature header of a delivery: `x-service-signature` (current secret),
 * `x-service-signature-previous` (during a rotation), and the Standard Webhooks trio with one `v1,`
 * entry per active secret.
 *
 * @example
 * const headers = await signedHeaders({ secrets: [secret], id: 'evt_1', timestampSeconds: 1767225600, body });
 */
export async function signedHeaders(input: SignedHeadersInput): Promise<Record<string, string>> {
  const [current, previous] = input.secrets;
  if (!current) throw new TypeError('At least one secret is needed to sign.');
  const headers: Record<string, string> = {
    'x-service-signature': await serviceSignature(current, input.body),
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestampSeconds),
  };
  if (previous) headers['x-service-signature-previous'] = await serviceSignature(previous, input.body);
  const standard = await Promise.all(
    input.secrets.map((secret) => standardSignature(secret, input.id, input.timestampSeconds, input.body)),
  );
  headers['webhook-signature'] = standard.join(' ');
  return headers;
}
