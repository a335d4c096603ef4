import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  checkDelivery,
  verifyServiceSignature,
  verifyStandardSignature,
} from '../../support-server/webhook-receiver.ts';

// The console's end-to-end test trusts the receiver in test/support-server/webhook-receiver.ts to judge
// our deliveries' signatures. It shares no code with the server's signing, so it is checked here against
// signatures made elsewhere: an HMAC computed with `openssl dgst -sha256 -hmac`, and the Standard
// Webhooks reference library. Each must pass, and the same signature over a changed body must fail.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{"event":"session.approved","session_id":"sess_1"}';
/** `printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -hex` */
const OPENSSL_HEX = '000b7b27ab190b8759803b6c8e3c5d9d5a821a284deb78904d1c5a492aea4817';

function referenceHeaders(body: string, at: Date, id = 'evt_1') {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SECRET).sign(id, at, body),
  };
}

describe('the independent webhook receiver', () => {
  it('accepts the x-service-signature openssl computes and refuses it for another body or key', () => {
    assert.equal(verifyServiceSignature(SECRET, BODY, OPENSSL_HEX), true);
    assert.equal(verifyServiceSignature(SECRET, BODY.replace('sess_1', 'sess_2'), OPENSSL_HEX), false);
    assert.equal(verifyServiceSignature(`${SECRET}x`, BODY, OPENSSL_HEX), false);
    assert.equal(verifyServiceSignature(SECRET, BODY, OPENSSL_HEX.toUpperCase()), false);
    assert.equal(verifyServiceSignature(SECRET, BODY, null), false);
  });

  it("accepts the Standard Webhooks library's signature and refuses a tampered body, id or stale time", () => {
    const at = new Date('2026-01-01T12:00:00Z');
    const now = Math.floor(at.getTime() / 1000);
    const headers = referenceHeaders(BODY, at);
    assert.equal(verifyStandardSignature(SECRET, BODY, headers, now), true);
    assert.equal(verifyStandardSignature(SECRET, `${BODY} `, headers, now), false);
    assert.equal(verifyStandardSignature(SECRET, BODY, { ...headers, 'webhook-id': 'evt_2' }, now), false);
    assert.equal(verifyStandardSignature(SECRET, BODY, headers, now + 6 * 60), false);
    // Several signatures (a rotation): one valid entry is enough.
    const rotated = { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` };
    assert.equal(verifyStandardSignature(SECRET, BODY, rotated, now), true);
  });

  it('checkDelivery reports a genuine delivery valid and its tampered copy rejected', () => {
    const receivedAt = Date.now();
    const headers = {
      ...referenceHeaders(BODY, new Date(receivedAt)),
      'x-service-signature': OPENSSL_HEX,
    };
    assert.deepEqual(checkDelivery(SECRET, { body: BODY, headers, receivedAt }), {
      event: 'session.approved',
      sessionId: 'sess_1',
      webhookId: 'evt_1',
      serviceSignatureValid: true,
      standardSignatureValid: true,
      tamperedBodyRejected: true,
    });
    const forged = checkDelivery(SECRET, { body: BODY.replace('sess_1', 'sess_9'), headers, receivedAt });
    assert.equal(forged.serviceSignatureValid, false);
    assert.equal(forged.standardSignatureValid, false);
  });
});
