import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../../server/runtime/node/config.ts';
import { loadOperationsConfig } from '../../../server/runtime/node/operations-config.ts';

describe('operations settings from the environment', () => {
  it('defaults: info logs, a 10 s stop deadline, no loopback for sandbox webhooks', () => {
    assert.deepEqual(loadOperationsConfig({}), {
      logLevel: 'info',
      shutdownTimeoutMs: 10_000,
      webhookAllowLoopback: false,
    });
  });

  it('reads each variable, an empty one meaning unset', () => {
    assert.deepEqual(
      loadOperationsConfig({
        IDV_LOG_LEVEL: 'silent',
        IDV_SHUTDOWN_TIMEOUT_MS: '2500',
        IDV_WEBHOOK_ALLOW_LOOPBACK: 'true',
        IDV_UNRELATED: 'x',
      }),
      { logLevel: 'silent', shutdownTimeoutMs: 2500, webhookAllowLoopback: true },
    );
    assert.equal(loadOperationsConfig({ IDV_LOG_LEVEL: '' }).logLevel, 'info');
  });

  it('names every bad value and what it expects', () => {
    assert.throws(
      () =>
        loadOperationsConfig({
          IDV_LOG_LEVEL: 'verbose',
          IDV_SHUTDOWN_TIMEOUT_MS: 'soon',
          IDV_WEBHOOK_ALLOW_LOOPBACK: 'yes',
        }),
      (error: Error) =>
        error instanceof ConfigError &&
        /IDV_LOG_LEVEL: must be info/.test(error.message) &&
        /IDV_SHUTDOWN_TIMEOUT_MS/.test(error.message) &&
        /IDV_WEBHOOK_ALLOW_LOOPBACK: must be true or false/.test(error.message),
    );
    assert.throws(() => loadOperationsConfig({ IDV_SHUTDOWN_TIMEOUT_MS: '5' }), /at least 100/);
  });
});
