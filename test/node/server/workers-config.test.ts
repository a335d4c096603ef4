import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../../server/runtime/node/config.ts';
import { loadWorkersConfig, runningWorkers } from '../../../server/runtime/node/workers-config.ts';

const WEBHOOK_DEFAULTS = { pollIntervalMs: 250, concurrency: 16 };

describe('background worker switches from the environment', () => {
  it('runs every worker by default, in the API process and in the worker process', () => {
    for (const process of ['api', 'worker'] as const) {
      const config = loadWorkersConfig({}, process);
      assert.deepEqual(config, { webhooks: WEBHOOK_DEFAULTS, review: true, sweepers: true });
      assert.deepEqual(runningWorkers(config), ['webhooks', 'review', 'sweepers']);
    }
  });

  it('IDV_WORKERS=off makes the API process API-only, whatever the per-worker switches say', () => {
    assert.deepEqual(
      loadWorkersConfig({ IDV_WORKERS: 'off', IDV_REVIEW_WORKER: 'on', IDV_WEBHOOK_WORKER: 'on' }, 'api'),
      { webhooks: false, review: false, sweepers: false },
    );
  });

  it('the worker process ignores IDV_WORKERS (often set for the API in a shared environment)', () => {
    assert.deepEqual(loadWorkersConfig({ IDV_WORKERS: 'off' }, 'worker'), {
      webhooks: WEBHOOK_DEFAULTS,
      review: true,
      sweepers: true,
    });
  });

  it('switches each worker on its own', () => {
    assert.deepEqual(loadWorkersConfig({ IDV_REVIEW_WORKER: 'off' }, 'api'), {
      webhooks: WEBHOOK_DEFAULTS,
      review: false,
      sweepers: true,
    });
    assert.deepEqual(loadWorkersConfig({ IDV_SWEEPERS: 'off', IDV_WEBHOOK_WORKER: 'off' }, 'worker'), {
      webhooks: false,
      review: true,
      sweepers: false,
    });
    assert.deepEqual(
      runningWorkers(loadWorkersConfig({ IDV_WEBHOOK_POLL_MS: '100', IDV_SWEEPERS: 'off' }, 'api')),
      ['webhooks', 'review'],
    );
  });

  it('names every bad value, the webhook worker’s included', () => {
    assert.throws(
      () =>
        loadWorkersConfig(
          { IDV_WORKERS: 'no', IDV_REVIEW_WORKER: 'false', IDV_SWEEPERS: '0', IDV_WEBHOOK_WORKER: 'x' },
          'api',
        ),
      (error: Error) =>
        error instanceof ConfigError &&
        /IDV_WORKERS: must be on \(default\) or off/.test(error.message) &&
        /IDV_REVIEW_WORKER: must be on/.test(error.message) &&
        /IDV_SWEEPERS: must be on/.test(error.message) &&
        /IDV_WEBHOOK_WORKER: must be `on`/.test(error.message),
    );
  });

  it('refuses a worker process with every worker off: it would have nothing to do', () => {
    assert.throws(
      () =>
        loadWorkersConfig(
          { IDV_WEBHOOK_WORKER: 'off', IDV_REVIEW_WORKER: 'off', IDV_SWEEPERS: 'off' },
          'worker',
        ),
      /all off, so a worker process has nothing to do/,
    );
  });
});
