import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  signTestWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../server/client/src/index.ts';
import { Webhook } from 'standardwebhooks';
// The server's own signer: the client re-implements signing and verifying from the API contract alone.
import { signedHeaders } from '../../../server/features/webhooks/signature.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  event: 'session.approved',
  event_id: 'evt_1',
  session_id: 'sess_1',
  identity_id: 'idn_1',
  decision: 'approved',
  created_at: '2026-01-01T00:00:00Z',
  environment: 'sandbox',
  status: 'approved',
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function serverSigned(secrets: string[], timestampSeconds = nowSeconds()) {
  return signedHeaders({ secrets, id: 'evt_1', timestampSeconds, body });
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof WebhookVerificationError, `expected a WebhookVerificationError, got ${error}`);
  return error.code;
}

describe('@id-verify/node webhook verification against the server signer', () => {
  it('accepts a delivery by its Standard Webhooks headers and answers the typed event', async () => {
    const secret = newSecret();
    const event = await verifyWebhook(body, new Headers(await serverSigned([secret])), secret);
    assert.equal(event.event, 'session.approved');
    assert.equal(event.identity_id, 'idn_1');
  });

  it('refuses by default a replay stripped of its `webhook-*` headers; accepts it only when opted in', async () => {
    const secret = newSecret();
    const headers = await serverSigned([secret]);
    // A captured delivery, replayed with only the untimestamped signature left.
    const replay = { 'X-Service-Signature': headers['x-service-signature']! };
    assert.equal(await rejection(verifyWebhook(body, replay, secret)), 'missing_header');
    assert.equal(await rejection(verifyWebhook(body, new Headers(replay), secret)), 'missing_header');
    // Even a year later the opted-in scheme still verifies it: that is what the option gives up.
    const optedIn = await verifyWebhook(body, replay, secret, { allowReplayableServiceSignature: true });
    assert.equal(optedIn.event_id, 'evt_1');
    // The same delivery with its headers, replayed after the tolerance, is refused.
    const later = new Date(Date.now() + 301_000);
    assert.equal(await rejection(verifyWebhook(body, headers, secret, { now: later })), 'timestamp_too_old');
    assert.equal(
      await rejection(
        verifyWebhook(body, headers, secret, { now: later, allowReplayableServiceSignature: true }),
      ),
      'timestamp_too_old',
    );
  });

  it('refuses a tampered body and a wrong secret under both schemes', async () => {
    const secret = newSecret();
    const headers = await serverSigned([secret]);
    const tampered = body.replace('approved', 'rejected');
    assert.equal(await rejection(verifyWebhook(tampered, headers, secret)), 'signature_mismatch');
    const serviceOnly = { 'x-service-signature': headers['x-service-signature']! };
    const replayable = { allowReplayableServiceSignature: true };
    assert.equal(
      await rejection(verifyWebhook(tampered, serviceOnly, secret, replayable)),
      'signature_mismatch',
    );
    assert.equal(await rejection(verifyWebhook(body, headers, newSecret())), 'signature_mismatch');
    assert.equal(
      await rejection(verifyWebhook(body, serviceOnly, newSecret(), replayable)),
      'signature_mismatch',
    );
    assert.equal(await rejection(verifyWebhook(body, headers, 'not-a-secret')), 'invalid_secret');
  });

  it('refuses an expired or future timestamp (default 5 min), within a configurable tolerance', async () => {
    const secret = newSecret();
    const old = await serverSigned([secret], nowSeconds() - 301);
    assert.equal(await rejection(verifyWebhook(body, old, secret)), 'timestamp_too_old');
    const future = await serverSigned([secret], nowSeconds() + 301);
    assert.equal(await rejection(verifyWebhook(body, future, secret)), 'timestamp_in_future');
    assert.equal((await verifyWebhook(body, old, secret, { toleranceSeconds: 600 })).event_id, 'evt_1');
    const recent = await serverSigned([secret], nowSeconds() - 200);
    assert.equal((await verifyWebhook(body, recent, secret)).event_id, 'evt_1');
  });

  it('handles a rotation: several secrets on either side', async () => {
    const previous = newSecret();
    const current = newSecret();
    // The server signs with both during the overlap: either secret alone verifies.
    const both = await serverSigned([current, previous]);
    assert.equal((await verifyWebhook(body, both, previous)).event_id, 'evt_1');
    assert.equal((await verifyWebhook(body, both, current)).event_id, 'evt_1');
    const serviceBoth = {
      'x-service-signature': both['x-service-signature']!,
      'x-service-signature-previous': both['x-service-signature-previous']!,
    };
    assert.equal(
      (await verifyWebhook(body, serviceBoth, previous, { allowReplayableServiceSignature: true })).event_id,
      'evt_1',
    );
    // A receiver that already holds the new secret still accepts a delivery signed only with the old one.
    const oldOnly = await serverSigned([previous]);
    assert.equal((await verifyWebhook(body, oldOnly, [current, previous])).event_id, 'evt_1');
    assert.equal(await rejection(verifyWebhook(body, oldOnly, [current])), 'signature_mismatch');
  });

  it('signs test deliveries exactly as the server signs them, under both schemes', async () => {
    const secret = newSecret();
    const other = newSecret();
    const signed = signTestWebhook(JSON.parse(body), secret, { additionalSecrets: [other] });
    const server = await signedHeaders({
      secrets: [secret, other],
      id: signed.headers['webhook-id']!,
      timestampSeconds: Number(signed.headers['webhook-timestamp']),
      body: signed.body,
    });
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-service-signature']) {
      assert.equal(signed.headers[name], server[name], name);
    }
    // And an independent Standard Webhooks implementation accepts them under either secret.
    assert.doesNotThrow(() => new Webhook(secret).verify(signed.body, signed.headers));
    assert.doesNotThrow(() => new Webhook(other).verify(signed.body, signed.headers));
    assert.equal((await verifyWebhook(signed.body, signed.headers, secret)).event, 'session.approved');
    // And a payload that is not an event is refused even when signed correctly.
    const notEvent = signTestWebhook('[1,2,3]', secret);
    assert.equal(await rejection(verifyWebhook(notEvent.body, notEvent.headers, secret)), 'invalid_payload');
  });
});
