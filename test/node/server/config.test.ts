import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../server/runtime/node/config.ts';

const KEY = randomBytes(32).toString('base64');

describe('configuration from the environment', () => {
  it('starts in development with the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.mode, 'development');
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.baseUrl, 'http://localhost:8080');
    assert.equal(config.verifyBaseUrl, 'http://localhost:8080');
    assert.equal(config.dataDir, './.idv');
    assert.equal(config.databaseUrl, undefined);
    assert.deepEqual(config.rateLimits, { reads: 600, writes: 300 });
    assert.deepEqual(config.retention, {});
  });

  it('treats an empty variable as unset and trims a trailing slash from URLs', () => {
    const config = loadConfig({
      PORT: '',
      IDV_BASE_URL: 'https://api.example.com/',
      IDV_VERIFY_BASE_URL: '',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.baseUrl, 'https://api.example.com');
    assert.equal(config.verifyBaseUrl, 'https://api.example.com');
  });

  it('names every bad variable and what it expects, without echoing secrets', () => {
    const secret = 'short-secret-value';
    assert.throws(
      () =>
        loadConfig({
          PORT: '99999',
          IDV_BASE_URL: 'api.example.com',
          DATABASE_URL: 'mysql://x',
          IDV_MASTER_KEY: secret,
        }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        for (const name of ['PORT', 'IDV_BASE_URL', 'DATABASE_URL', 'IDV_MASTER_KEY'])
          assert.match(error.message, new RegExp(name));
        assert.ok(!error.message.includes(secret), 'the message must not repeat the secret');
        return true;
      },
    );
  });

  it('requires the keys and the base URL in production, and generates nothing', () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production' }),
      /IDV_MASTER_KEY[\s\S]*IDV_JWT_SECRET[\s\S]*IDV_BASE_URL/,
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      IDV_MASTER_KEY: KEY,
      IDV_JWT_SECRET: randomBytes(32).toString('hex'),
      IDV_BASE_URL: 'https://api.example.com',
    });
    assert.equal(config.mode, 'production');
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.masterKey?.length, 32);
    assert.equal(config.jwtSecret?.length, 32);
  });

  it('reads evidence retention in days and refuses a non-positive period', () => {
    assert.deepEqual(
      loadConfig({ IDV_RETENTION_DECIDED_DAYS: '1825', IDV_RETENTION_ABANDONED_DAYS: '7.5' }).retention,
      {
        evidenceDaysAfterDecision: 1825,
        evidenceDaysAfterAbandonment: 7.5,
      },
    );
    assert.throws(() => loadConfig({ IDV_RETENTION_DECIDED_DAYS: '0' }), /IDV_RETENTION_DECIDED_DAYS/);
    assert.throws(
      () => loadConfig({ IDV_RETENTION_ABANDONED_DAYS: 'forever' }),
      /IDV_RETENTION_ABANDONED_DAYS/,
    );
  });
});
