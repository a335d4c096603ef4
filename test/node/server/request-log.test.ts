import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Logger } from '../../../server/logger.ts';
import { createApp } from '../../../server/app.ts';
import { jsonLinesLogger } from '../../../server/runtime/node/json-lines-logger.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';

interface LogRecord {
  level: 'info' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

function capturingLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    info: (message, fields = {}) => records.push({ level: 'info', message, fields }),
    error: (message, fields = {}) => records.push({ level: 'error', message, fields }),
  };
}

describe('request log', () => {
  let h: TestHarness;
  let logger: ReturnType<typeof capturingLogger>;
  before(async () => {
    h = await createHarness('pglite');
  });
  after(() => h.close());

  /** Runs `work` with a fresh capture and returns the `request` records it produced. */
  async function logged(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
    logger = capturingLogger();
    h.deps.logger = logger;
    try {
      await work();
    } finally {
      delete h.deps.logger;
    }
    return logger.records.filter((record) => record.message === 'request').map((record) => record.fields);
  }

  it('writes one record per request: the client’s request id, tenant, route pattern, status, duration', async () => {
    let response: Response | undefined;
    const records = await logged(async () => {
      response = await h.call('GET', '/v1/sessions/sess_doesnotexist', {
        key: h.tenant.sandboxKey,
        headers: { 'x-request-id': 'client-req-0001' },
      });
    });
    assert.equal(records.length, 1);
    const record = records[0] as Record<string, unknown>;
    assert.deepEqual(Object.keys(record).sort(), [
      'duration_ms',
      'method',
      'request_id',
      'route',
      'status',
      'tenant_id',
    ]);
    assert.equal(record['request_id'], 'client-req-0001');
    assert.equal(record['request_id'], response?.headers.get('x-request-id'));
    assert.equal(record['tenant_id'], h.tenant.tenantId);
    assert.equal(record['route'], '/v1/sessions/:id');
    assert.equal(record['method'], 'GET');
    assert.equal(record['status'], 404);
    assert.equal(typeof record['duration_ms'], 'number');
  });

  it('uses the generated request id when the client sends none, the same one it answers with', async () => {
    let response: Response | undefined;
    const [record] = await logged(async () => {
      response = await h.call('GET', '/healthz');
    });
    assert.match(String(record?.['request_id']), /^req_/);
    assert.equal(record?.['request_id'], response?.headers.get('x-request-id'));
    assert.equal(record?.['tenant_id'], null);
  });

  it('never holds personal data, query strings, keys, tokens or passwords', async () => {
    const secrets = ['alice.smith@example.com', 'Alice Smith', h.tenant.sandboxKey, h.tenant.password];
    let verifyToken = '';
    const records = await logged(async () => {
      const created = await json(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          body: {
            country: 'NLD',
            flow: 'user',
            tier: 'tier1',
            external_user_reference: 'alice.smith@example.com',
            metadata: { name: 'Alice Smith' },
          },
        }),
      );
      verifyToken = new URL(created['verify_url']).pathname.split('/').pop() ?? '';
      await h.call('GET', '/v1/sessions?external_user_reference=alice.smith%40example.com&limit=5', {
        key: h.tenant.sandboxKey,
      });
      await h.call('GET', `/verify/${verifyToken}`);
      await h.call('POST', '/v1/console/login', {
        body: { email: 'alice.smith@example.com', password: h.tenant.password },
      });
      await h.call('GET', '/v1/no/such/route?secret=alice.smith@example.com');
    });
    assert.ok(verifyToken.length > 10);
    const text = JSON.stringify(records);
    for (const secret of [...secrets, verifyToken, '?', 'limit=']) {
      assert.ok(!text.includes(secret), `the log holds ${secret}`);
    }
    assert.deepEqual(
      records.map((record) => record['route']),
      ['/v1/sessions', '/v1/sessions', '/verify/:token', '/v1/console/login', null],
    );
  });

  it('records a 500 with its status, and the error separately without the request', async () => {
    const records = await logged(async () => {
      // Built inside, so it copies the capturing logger.
      const failing = createApp({
        ...h.deps,
        db: { ...h.deps.db, query: () => Promise.reject(new Error('boom')) },
      });
      return failing.request('/v1/sessions', { headers: { 'x-api-key': h.tenant.sandboxKey } });
    });
    assert.equal(records[0]?.['status'], 500);
    assert.ok(
      logger.records.some((record) => record.level === 'error' && record.message === 'unhandled error'),
    );
  });
});

describe('JSON lines logger', () => {
  const capture = (level: 'info' | 'error' | 'silent') => {
    const lines: string[] = [];
    const logger = jsonLinesLogger(level, (line) => lines.push(line));
    logger.info('request', { status: 200 });
    logger.error('round failed', { error: 'TypeError' });
    return lines;
  };

  it('writes one parseable line a record, with time, level, message and fields', () => {
    const lines = capture('info');
    assert.equal(lines.length, 2);
    for (const line of lines) assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'));
    const first = JSON.parse(lines[0] as string);
    assert.equal(first.level, 'info');
    assert.equal(first.message, 'request');
    assert.equal(first.status, 200);
    assert.ok(!Number.isNaN(Date.parse(first.time)));
  });

  it('honours IDV_LOG_LEVEL: error keeps errors only, silent nothing', () => {
    assert.deepEqual(
      capture('error').map((line) => JSON.parse(line).message),
      ['round failed'],
    );
    assert.deepEqual(capture('silent'), []);
  });
});
