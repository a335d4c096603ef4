import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { nonPublicReason } from '../../../server/features/webhooks/ip-address.ts';
import { verifyWebhook, WebhookVerificationError } from '../../../server/client/src/index.ts';
import { signedHeaders } from '../../../server/features/webhooks/signature.ts';
import { generateWebhookSecret } from '../../../server/features/webhooks/webhook-secret.ts';
import {
  maxAttempts,
  nextRetryDelay,
  parseRetryAfter,
} from '../../../server/features/webhooks/retry-schedule.ts';

describe('address classification for the SSRF guard', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '2001:db8::1',
    'not-an-ip',
  ]) {
    it(`refuses ${address}`, () => assert.notEqual(nonPublicReason(address), null));
  }
  for (const address of [
    '93.184.216.34',
    '8.8.8.8',
    '2606:2800:220:1:248:1893:25c8:1946',
    '::ffff:8.8.8.8',
  ]) {
    it(`allows ${address}`, () => assert.equal(nonPublicReason(address), null));
  }
});

describe('retry schedule', () => {
  it('applies at most ±15 % jitter', () => {
    assert.equal(nextRetryDelay(1, 'production', { random: () => 0 }), 4250);
    assert.equal(nextRetryDelay(1, 'production', { random: () => 1 }), 5750);
    assert.equal(nextRetryDelay(0, 'production', { random: () => 1 }), 0, 'the first attempt goes at once');
  });
  it('stops after ten attempts in production and five (the 2 h step) in the sandbox', () => {
    assert.equal(maxAttempts('production'), 10);
    assert.equal(maxAttempts('sandbox'), 5);
    assert.equal(nextRetryDelay(9, 'production', { random: () => 0.5 }), 24 * 3600 * 1000);
    assert.equal(nextRetryDelay(10, 'production', { random: () => 0.5 }), null);
    assert.equal(nextRetryDelay(5, 'sandbox', { random: () => 0.5 }), null);
  });
  it('reads retry-after as seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('30', now), 30_000);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now), 60_000);
    assert.equal(parseRetryAfter('soon', now), null);
  });
});

// The server signs; receivers verify with `@id-verify/node` (the one verifier we ship) or any Standard
// Webhooks library: both must accept what the server sends, and say why when they refuse.
async function serverSigned(
  secret: string,
  at: Date,
  payload: object = { event: 'session.approved', session_id: 's' },
) {
  const body = JSON.stringify({
    event_id: 'evt_1',
    created_at: at.toISOString(),
    environment: 'sandbox',
    ...payload,
  });
  const headers = await signedHeaders({
    secrets: [secret],
    id: 'evt_1',
    timestampSeconds: Math.floor(at.getTime() / 1000),
    body,
  });
  return { body, headers };
}

describe('what the server signs, as receivers verify it', () => {
  it('verifies with @id-verify/node, and standardwebhooks accepts the same headers', async () => {
    const secret = generateWebhookSecret();
    const { body, headers } = await serverSigned(secret, new Date());
    const event = await verifyWebhook(body, headers, secret);
    assert.equal(event.event, 'session.approved');
    assert.doesNotThrow(() => new Webhook(secret).verify(body, headers));
    const serviceOnly = { 'x-service-signature': headers['x-service-signature']! };
    const replayable = await verifyWebhook(body, serviceOnly, secret, {
      allowReplayableServiceSignature: true,
    });
    assert.equal(replayable.event === 'session.approved' && replayable.session_id, 's');
  });

  it('explains each failure with a code', async () => {
    const secret = generateWebhookSecret();
    const at = new Date('2026-01-01T00:00:00Z');
    const { body, headers } = await serverSigned(secret, at, { event: 'x' });
    const code = async (promise: Promise<unknown>) => {
      try {
        await promise;
        return 'ok';
      } catch (error) {
        assert.ok(error instanceof WebhookVerificationError);
        return error.code;
      }
    };
    assert.equal(await code(verifyWebhook(body, headers, secret, { now: at })), 'ok');
    assert.equal(await code(verifyWebhook(`${body} `, headers, secret, { now: at })), 'signature_mismatch');
    assert.equal(
      await code(verifyWebhook(body, headers, generateWebhookSecret(), { now: at })),
      'signature_mismatch',
    );
    assert.equal(
      await code(verifyWebhook(body, headers, secret, { now: new Date(at.getTime() + 301_000) })),
      'timestamp_too_old',
    );
    assert.equal(
      await code(verifyWebhook(body, headers, secret, { now: new Date(at.getTime() - 301_000) })),
      'timestamp_in_future',
    );
    const { 'webhook-id': _id, ...missing } = headers;
    assert.equal(await code(verifyWebhook(body, missing, secret, { now: at })), 'missing_header');
    assert.equal(await code(verifyWebhook(body, headers, 'plain', { now: at })), 'invalid_secret');
    assert.equal(
      await code(
        verifyWebhook(body, { 'x-service-signature': '0'.repeat(64) }, secret, {
          allowReplayableServiceSignature: true,
        }),
      ),
      'signature_mismatch',
    );
  });
});
