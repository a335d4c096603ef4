import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nodeWebhookSender, type ResolveAll } from '../../../server/node/node-webhook-sender.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';
import { createSession, deliveriesOf, workerFor } from './support/webhook-harness.ts';

/** A DNS the test controls: names map to address lists and can be re-pointed (DNS rebinding). */
function fakeDns(records: Record<string, string[]>): ResolveAll {
  return async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

for (const engine of testEngines()) {
  describe(`SSRF guard in production mode (${engine})`, () => {
    let h: TestHarness;
    let receiver: Receiver;
    const dns: Record<string, string[]> = {
      'loopback.example.com': ['127.0.0.1'],
      'mixed.example.com': ['93.184.216.34', '10.1.2.3'],
      'public.example.com': ['93.184.216.34'],
      'rebind.example.com': ['93.184.216.34'],
    };
    before(async () => {
      h = await createHarness(engine, { config: { mode: 'production' } });
      // The app reads deps at call time, so the sender (with its fake DNS) can be swapped in after creation.
      h.deps.webhookSender = nodeWebhookSender({ resolve: fakeDns(dns) });
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await h.close();
    });

    const create = (url: string, key = h.tenant.productionKey) =>
      h.call('POST', '/v1/webhooks', { key, body: { url, events: ['*'] } });

    for (const [url, why] of [
      ['http://127.0.0.1/hook', /https/],
      ['https://127.0.0.1/hook', /loopback/],
      ['https://10.0.0.1/hook', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://[::1]/hook', /loopback/],
      ['https://[::ffff:127.0.0.1]/hook', /loopback/],
      ['https://[fd00:ec2::254]/hook', /unique local/],
      ['https://100.64.0.1/hook', /carrier-grade NAT/],
      ['https://0x7f.1/hook', /loopback/],
      ['https://localhost/hook', /internal/],
      ['https://metadata.google.internal/computeMetadata', /internal/],
      ['https://loopback.example.com/hook', /resolves to 127\.0\.0\.1, which is loopback/],
      ['https://mixed.example.com/hook', /resolves to 10\.1\.2\.3, which is private/],
      ['https://nowhere.example.com/hook', /does not resolve/],
      ['https://user:pass@public.example.com/hook', /credentials/],
    ] as const) {
      it(`refuses ${url} at create with 422 webhook_url_not_allowed`, async () => {
        const response = await create(url);
        const problem = await json(response);
        assert.equal(response.status, 422);
        assert.equal(problem['code'], 'webhook_url_not_allowed');
        assert.equal(problem['param'], 'url');
        assert.match(problem['detail'], why);
      });
    }

    it('refuses the same URLs when a webhook is changed to them', async () => {
      const created = await json(await create('https://public.example.com/hook'));
      const response = await h.call('PATCH', `/v1/webhooks/${created['webhook_id']}`, {
        key: h.tenant.productionKey,
        body: { url: 'https://169.254.169.254/' },
      });
      assert.equal(response.status, 422);
      assert.equal((await json(response))['code'], 'webhook_url_not_allowed');
    });

    it('lets the sandbox of a production server target http and loopback', async () => {
      const response = await create(`${receiver.url}/sandbox`, h.tenant.sandboxKey);
      assert.equal(response.status, 201);
    });

    it('refuses at delivery a name that resolved publicly at create and to loopback now (DNS rebinding)', async () => {
      const url = `https://rebind.example.com:${receiver.port}/hook`;
      const created = await json(await create(url));
      assert.ok(created['webhook_id'], 'accepted while it resolved to a public address');
      dns['rebind.example.com'] = ['127.0.0.1'];
      await h.deps.db.query(`update webhooks set status = 'disabled' where id <> $1`, [
        created['webhook_id'],
      ]);
      const worker = workerFor(h);
      await createSession(h, h.tenant.productionKey);
      const before = receiver.connections;
      await worker.runOnce();
      assert.equal(receiver.connections, before, 'no connection was even opened');
      const deliveries = await deliveriesOf(h, created['webhook_id'], h.tenant.productionKey);
      const attempt = deliveries[0]?.['attempts'][0];
      assert.equal(attempt?.status, 'failed');
      assert.equal(attempt?.error_class, 'address_not_allowed');
    });

    for (const url of [
      'http://127.0.0.1:PORT/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/hook',
    ]) {
      it(`refuses at delivery a stored URL ${url} (e.g. created before the server ran in production)`, async () => {
        const created = await json(await create('https://public.example.com/stale'));
        await h.deps.db.query('update webhooks set url = $2 where id = $1', [
          created['webhook_id'],
          url.replace('PORT', String(receiver.port)),
        ]);
        // Only this endpoint may be active, so other tests' endpoints do not add deliveries.
        await h.deps.db.query(`update webhooks set status = 'disabled' where id <> $1`, [
          created['webhook_id'],
        ]);
        const before = receiver.connections;
        await createSession(h, h.tenant.productionKey);
        await workerFor(h).runOnce();
        assert.equal(receiver.connections, before);
        const deliveries = await deliveriesOf(h, created['webhook_id'], h.tenant.productionKey);
        assert.equal(deliveries[0]?.['attempts'][0]?.error_class, 'address_not_allowed');
      });
    }

    it('the test endpoint is guarded too and reports only a status code', async () => {
      const created = await json(await create('https://public.example.com/t'));
      await h.deps.db.query('update webhooks set url = $2 where id = $1', [
        created['webhook_id'],
        `http://127.0.0.1:${receiver.port}/t`,
      ]);
      const response = await h.call('POST', `/v1/webhooks/${created['webhook_id']}/test`, {
        key: h.tenant.productionKey,
      });
      const result = await json(response);
      assert.equal(response.status, 200);
      assert.equal(result['status_code'], null);
      assert.equal(result['error_class'], 'address_not_allowed');
    });
  });
}
