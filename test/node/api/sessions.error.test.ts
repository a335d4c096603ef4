import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

const VALID = { country: 'DEU', flow: 'user', tier: 'tier2' };

/** Asserts an RFC 9457 problem with the given status and code, and returns its body. */
async function expectProblem(response: Response, status: number, code: string) {
  const body = await json(response);
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status} ${JSON.stringify(body)}`,
  );
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(body['code'], code);
  assert.equal(body['status'], status);
  assert.equal(typeof body['title'], 'string');
  assert.equal(typeof body['detail'], 'string');
  assert.match(body['type'], new RegExp(`/docs/problems/${code}$`));
  assert.match(body['request_id'], /^req_/);
  assert.equal(response.headers.get('x-request-id'), body['request_id']);
  return body;
}

for (const engine of testEngines()) {
  describe(`sessions, bad input (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const create = (body: unknown, headers: Record<string, string> = {}) =>
      h.call('POST', '/v1/sessions', { key: h.tenant.sandboxKey, body, headers });

    it('rejects malformed JSON with invalid_json', async () => {
      await expectProblem(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          rawBody: '{"country": "DEU",',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'invalid_json',
      );
    });

    it('rejects a JSON body that is not an object as invalid_json', async () => {
      await expectProblem(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          rawBody: '[1,2]',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'invalid_json',
      );
    });

    it('rejects a wrong type with invalid_parameter naming the field', async () => {
      const body = await expectProblem(await create({ ...VALID, tier: 2 }), 400, 'invalid_parameter');
      assert.equal(body['param'], 'tier');
    });

    it('rejects an unknown field with unknown_parameter naming it', async () => {
      const body = await expectProblem(await create({ ...VALID, colour: 'blue' }), 400, 'unknown_parameter');
      assert.equal(body['param'], 'colour');
    });

    it('rejects a missing required field with missing_parameter', async () => {
      const body = await expectProblem(
        await create({ flow: 'user', tier: 'tier1' }),
        400,
        'missing_parameter',
      );
      assert.equal(body['param'], 'country');
    });

    it('lists every validation failure in errors[]', async () => {
      const body = await expectProblem(
        await create({ country: 'deu', flow: 'person', tier: 'tier9' }),
        400,
        'invalid_parameter',
      );
      const params = (body['errors'] as { param: string; code: string; detail: string }[])
        .map((error) => error.param)
        .sort();
      assert.deepEqual(params, ['country', 'flow', 'tier']);
    });

    it('rejects a lowercase country code', async () => {
      const body = await expectProblem(await create({ ...VALID, country: 'deu' }), 400, 'invalid_parameter');
      assert.equal(body['param'], 'country');
    });

    it('rejects a country code that does not exist', async () => {
      const body = await expectProblem(await create({ ...VALID, country: 'XYZ' }), 400, 'invalid_parameter');
      assert.equal(body['param'], 'country');
    });

    it('rejects an alpha-2 country code', async () => {
      await expectProblem(await create({ ...VALID, country: 'DE' }), 400, 'invalid_parameter');
    });

    it('rejects an unknown flow', async () => {
      const body = await expectProblem(await create({ ...VALID, flow: 'company' }), 400, 'invalid_parameter');
      assert.equal(body['param'], 'flow');
    });

    it('rejects an unknown tier', async () => {
      const body = await expectProblem(await create({ ...VALID, tier: 'tier4' }), 400, 'invalid_parameter');
      assert.equal(body['param'], 'tier');
    });

    it('rejects a relative redirect_url and a javascript: one', async () => {
      await expectProblem(await create({ ...VALID, redirect_url: '/done' }), 400, 'invalid_parameter');
      await expectProblem(
        await create({ ...VALID, redirect_url: 'javascript:alert(1)' }),
        400,
        'invalid_parameter',
      );
    });

    it('rejects expires_in outside 900–604800 s', async () => {
      await expectProblem(await create({ ...VALID, expires_in: 60 }), 400, 'invalid_parameter');
      await expectProblem(await create({ ...VALID, expires_in: 604801 }), 400, 'invalid_parameter');
    });

    it('rejects metadata with more than 50 keys or a long value', async () => {
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      await expectProblem(await create({ ...VALID, metadata: tooMany }), 400, 'invalid_parameter');
      await expectProblem(
        await create({ ...VALID, metadata: { note: 'x'.repeat(501) } }),
        400,
        'invalid_parameter',
      );
    });

    it('rejects an external_user_reference over 255 characters', async () => {
      await expectProblem(
        await create({ ...VALID, external_user_reference: 'u'.repeat(256) }),
        400,
        'invalid_parameter',
      );
    });

    it('rejects the sandbox parameter with a production key', async () => {
      const response = await h.call('POST', '/v1/sessions', {
        key: h.tenant.productionKey,
        body: { ...VALID, sandbox: { outcome: 'approved' } },
      });
      await expectProblem(response, 400, 'sandbox_parameter_in_production');
    });

    it('rejects a body over 64 KB with payload_too_large', async () => {
      const body = JSON.stringify({ ...VALID, metadata: { note: 'x'.repeat(70 * 1024) } });
      await expectProblem(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          rawBody: body,
          headers: { 'content-type': 'application/json' },
        }),
        413,
        'payload_too_large',
      );
    });

    it('rejects a body that is not JSON by content type', async () => {
      await expectProblem(
        await h.call('POST', '/v1/sessions', {
          key: h.tenant.sandboxKey,
          rawBody: 'country=DEU',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'unsupported_media_type',
      );
    });

    it('answers an unknown route with route_not_found', async () => {
      await expectProblem(
        await h.call('GET', '/v1/nothing-here', { key: h.tenant.sandboxKey }),
        404,
        'route_not_found',
      );
    });

    it('answers a wrong method with method_not_allowed and an allow header', async () => {
      const response = await h.call('PUT', '/v1/sessions', { key: h.tenant.sandboxKey, body: VALID });
      await expectProblem(response, 405, 'method_not_allowed');
      assert.match(response.headers.get('allow') ?? '', /GET/);
      assert.match(response.headers.get('allow') ?? '', /POST/);
    });

    it('answers an unknown session id with resource_missing', async () => {
      await expectProblem(
        await h.call('GET', '/v1/sessions/sess_doesnotexist', { key: h.tenant.sandboxKey }),
        404,
        'resource_missing',
      );
    });

    it('refuses to submit a session whose steps are not done with steps_incomplete', async () => {
      const created = await json(await create(VALID));
      const body = await expectProblem(
        await h.call('POST', `/v1/sessions/${created['session_id']}/submit`, { key: h.tenant.sandboxKey }),
        409,
        'steps_incomplete',
      );
      assert.deepEqual(body['missing_steps'], ['consent', 'id_document', 'liveness']);
    });

    it('refuses to cancel a session twice into another state, but repeats the same cancel', async () => {
      const created = await json(await create(VALID));
      const path = `/v1/sessions/${created['session_id']}`;
      const first = await h.call('DELETE', path, { key: h.tenant.sandboxKey });
      assert.equal(first.status, 200);
      const again = await h.call('DELETE', path, { key: h.tenant.sandboxKey });
      assert.equal(again.status, 200);
      assert.equal((await json(again))['status'], 'cancelled');
      await expectProblem(
        await h.call('POST', `${path}/submit`, { key: h.tenant.sandboxKey }),
        409,
        'invalid_state_transition',
      );
    });

    it('rejects both list cursors at once and an unknown cursor', async () => {
      await expectProblem(
        await h.call('GET', '/v1/sessions?starting_after=sess_a&ending_before=sess_b', {
          key: h.tenant.sandboxKey,
        }),
        400,
        'invalid_cursor',
      );
      await expectProblem(
        await h.call('GET', '/v1/sessions?starting_after=sess_unknown', { key: h.tenant.sandboxKey }),
        400,
        'invalid_cursor',
      );
    });

    it('rejects a list limit outside 1–100', async () => {
      await expectProblem(
        await h.call('GET', '/v1/sessions?limit=0', { key: h.tenant.sandboxKey }),
        400,
        'invalid_parameter',
      );
      await expectProblem(
        await h.call('GET', '/v1/sessions?limit=101', { key: h.tenant.sandboxKey }),
        400,
        'invalid_parameter',
      );
    });

    it('echoes a valid client x-request-id and replaces an invalid one', async () => {
      const echoed = await h.call('GET', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        headers: { 'x-request-id': 'client-trace-42' },
      });
      assert.equal(echoed.headers.get('x-request-id'), 'client-trace-42');
      const replaced = await h.call('GET', '/v1/sessions', {
        key: h.tenant.sandboxKey,
        headers: { 'x-request-id': 'bad id\u0001' },
      });
      assert.match(replaced.headers.get('x-request-id') ?? '', /^req_/);
    });
  });
}
