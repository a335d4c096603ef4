import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { nonPublicReason } from '../../../server/features/webhooks/ip-address.ts';
import {
  generateWebhookSecret,
  signTestWebhook,
  verifyServiceSignatureWithoutReplayProtection,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../server/features/webhooks/index.ts';
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

describe('receiver helpers', () => {
  it('round-trips signTestWebhook → verifyWebhook, and standardwebhooks accepts the same headers', async () => {
    const secret = generateWebhookSecret();
    const { body, headers } = await signTestWebhook({
      secret,
      payload: { event: 'session.approved', session_id: 's' },
    });
    const event = await verifyWebhook(body, headers, { secret });
    assert.equal(event.event, 'session.approved');
    assert.doesNotThrow(() => new Webhook(secret).verify(body, headers));
    assert.equal(
      (await verifyServiceSignatureWithoutReplayProtection(body, headers, { secret })).session_id,
      's',
    );
  });

  it('explains each failure with a code', async () => {
    const secret = generateWebhookSecret();
    const at = new Date('2026-01-01T00:00:00Z');
    const { body, headers } = await signTestWebhook({ secret, payload: { event: 'x' }, timestamp: at });
    const code = async (promise: Promise<unknown>) => {
      try {
        await promise;
        return 'ok';
      } catch (error) {
        assert.ok(error instanceof WebhookVerificationError);
        return error.code;
      }
    };
    assert.equal(await code(verifyWebhook(body, headers, { secret, now: at })), 'ok');
    assert.equal(await code(verifyWebhook(`${body} `, headers, { secret, now: at })), 'signature_mismatch');
    assert.equal(
      await code(verifyWebhook(body, headers, { secret: generateWebhookSecret(), now: at })),
      'signature_mismatch',
    );
    assert.equal(
      await code(verifyWebhook(body, headers, { secret, now: new Date(at.getTime() + 301_000) })),
      'timestamp_too_old',
    );
    assert.equal(
      await code(verifyWebhook(body, headers, { secret, now: new Date(at.getTime() - 301_000) })),
      'timestamp_in_future',
    );
    const { 'webhook-id': _id, ...missing } = headers;
    assert.equal(await code(verifyWebhook(body, missing, { secret, now: at })), 'missing_header');
    assert.equal(await code(verifyWebhook(body, headers, { secret: 'plain', now: at })), 'invalid_secret');
    assert.equal(
      await code(
        verifyServiceSignatureWithoutReplayProtection(
          body,
          { ...headers, 'x-service-signature': '00' },
          { secret },
        ),
      ),
      'signature_mismatch',
    );
  });
});
