import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { classifyAddressWithBlockList } from '../../../server/runtime/node/address-block-list.ts';
import { nodeWebhookSender, type ResolveAll } from '../../../server/runtime/node/node-webhook-sender.ts';
import { classifyAddress, SPECIAL_RANGES } from '../../../server/features/webhooks/ip-address.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Receiver, startReceiver } from './support/receiver.ts';

/** A DNS the test controls: names map to address lists and can be re-pointed (DNS rebinding). */
function fakeDns(records: Record<string, string[]>): ResolveAll {
  return async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** Who registers the endpoint, on which server: the columns of the matrix. */
type Column = 'production key' | 'sandbox key' | 'sandbox key, loopback allowed' | 'development server';
const COLUMNS: Column[] = [
  'production key',
  'sandbox key',
  'sandbox key, loopback allowed',
  'development server',
];

type Verdict = 'allow' | 'refuse';
const A: Verdict = 'allow';
const R: Verdict = 'refuse';

/**
 * The matrix: an endpoint host (IP literal, or a name the fake DNS resolves) × who registers it. Loopback
 * only for a development server or a sandbox key where the operator allowed it; private and CGNAT only
 * for a development server; link-local and metadata never.
 */
const MATRIX: [host: string, why: RegExp, verdicts: [Verdict, Verdict, Verdict, Verdict]][] = [
  ['93.184.216.34', /./, [A, A, A, A]],
  ['[2606:2800:220:1:248:1893:25c8:1946]', /./, [A, A, A, A]],
  ['127.0.0.1', /loopback/, [R, R, A, A]],
  ['127.1.2.3', /loopback/, [R, R, A, A]],
  ['[::1]', /loopback/, [R, R, A, A]],
  ['[::ffff:127.0.0.1]', /loopback/, [R, R, A, A]],
  ['0x7f.1', /loopback/, [R, R, A, A]],
  ['10.0.0.1', /private/, [R, R, R, A]],
  ['172.16.5.4', /private/, [R, R, R, A]],
  ['192.168.1.1', /private/, [R, R, R, A]],
  ['[fc00::1]', /unique local/, [R, R, R, A]],
  ['100.64.0.1', /carrier-grade NAT/, [R, R, R, A]],
  ['169.254.169.254', /metadata/, [R, R, R, R]],
  ['[fd00:ec2::254]', /metadata/, [R, R, R, R]],
  ['100.100.100.200', /metadata/, [R, R, R, R]],
  ['[::ffff:169.254.169.254]', /metadata/, [R, R, R, R]],
  ['[64:ff9b::a9fe:a9fe]', /metadata/, [R, R, R, R]],
  ['169.254.10.1', /link-local/, [R, R, R, R]],
  ['[fe80::1]', /link-local/, [R, R, R, R]],
  ['loopback.example.com', /resolves to 127\.0\.0\.1, which is loopback/, [R, R, A, A]],
  ['private.example.com', /resolves to 10\.1\.2\.3, which is private/, [R, R, R, A]],
  ['mixed.example.com', /resolves to 10\.1\.2\.3, which is private/, [R, R, R, A]],
  // A development server resolves nothing at create time; delivery refuses this one (below).
  ['metadata.example.com', /resolves to 169\.254\.169\.254, which is a cloud metadata address/, [R, R, R, A]],
  ['localhost', /internal/, [R, R, A, A]],
  ['metadata.google.internal', /internal/, [R, R, R, A]],
];

const DNS: Record<string, string[]> = {
  'loopback.example.com': ['127.0.0.1'],
  'private.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'public.example.com': ['93.184.216.34'],
  'rebind.example.com': ['93.184.216.34'],
  localhost: ['127.0.0.1'],
};

describe('address classification: the web table and net.BlockList agree', () => {
  it('on the first, last and neighbouring addresses of every special range, and on public ones', () => {
    const samples = [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '3fff:ffff::1',
      '4000::1',
      '1fff:ffff::1',
      'fe80::1%eth0',
      'not-an-ip',
      '1.2.3',
    ];
    for (const { cidr } of SPECIAL_RANGES) {
      const [base = ''] = cidr.split('/');
      samples.push(base);
      if (base.includes('.')) {
        const bytes = base.split('.').map(Number);
        const below = [...bytes];
        below[3] = Math.max(0, (below[3] ?? 0) - 1);
        samples.push(below.join('.'), bytes.map((byte, i) => (i === 3 ? 255 : byte)).join('.'));
        samples.push(`::ffff:${base}`, `64:ff9b::${base}`);
      } else {
        samples.push(base.replace(/::$/, '::1'), base.replace(/::$/, '::ffff'));
      }
    }
    let compared = 0;
    for (const address of samples) {
      assert.deepEqual(classifyAddressWithBlockList(address), classifyAddress(address), address);
      compared += 1;
    }
    assert.ok(compared > 100, `${compared} addresses compared`);
  });

  it('on 2,000 pseudo-random IPv4 and IPv6 addresses', () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 1000; i += 1) {
      const v4 = [next() % 256, next() % 256, next() % 256, next() % 256].join('.');
      const v6 = Array.from({ length: 8 }, () => (next() % 65_536).toString(16)).join(':');
      assert.deepEqual(classifyAddressWithBlockList(v4), classifyAddress(v4), v4);
      assert.deepEqual(classifyAddressWithBlockList(v6), classifyAddress(v6), v6);
    }
  });
});

for (const engine of testEngines()) {
  describe(`SSRF guard: addresses × keys (${engine})`, () => {
    let production: TestHarness;
    let development: TestHarness;
    let receiver: Receiver;
    const dns: Record<string, string[]> = structuredClone(DNS);
    before(async () => {
      production = await createHarness(engine, { config: { mode: 'production' } });
      development = await createHarness(engine, { config: { mode: 'development' } });
      development.deps.webhookSender = nodeWebhookSender({ resolve: fakeDns(dns) });
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await production.close();
      await development.close();
    });

    /** Creates an endpoint as `column` would; the app reads `deps.webhookSender` at call time. */
    const register = (column: Column, url: string) => {
      if (column === 'development server') {
        return development.call('POST', '/v1/webhooks', {
          key: development.tenant.sandboxKey,
          body: { url, events: ['*'] },
        });
      }
      production.deps.webhookSender = nodeWebhookSender({
        resolve: fakeDns(dns),
        allowLoopback: column === 'sandbox key, loopback allowed',
      });
      const key =
        column === 'production key' ? production.tenant.productionKey : production.tenant.sandboxKey;
      return production.call('POST', '/v1/webhooks', { key, body: { url, events: ['*'] } });
    };

    for (const [host, why, verdicts] of MATRIX) {
      it(`registering ${host}: ${COLUMNS.map((column, i) => `${column} ${verdicts[i]}`).join(', ')}`, async () => {
        for (const [index, column] of COLUMNS.entries()) {
          // https everywhere, so the scheme is never the reason (production keys require it).
          const response = await register(column, `https://${host}/hook`);
          const body = await json(response);
          if (verdicts[index] === 'allow') {
            assert.equal(response.status, 201, `${column}: ${JSON.stringify(body)}`);
          } else {
            assert.equal(response.status, 422, `${column}: ${response.status}`);
            assert.equal(body['code'], 'webhook_url_not_allowed');
            assert.equal(body['param'], 'url');
            assert.match(body['detail'], why, column);
          }
        }
      });
    }

    it('refuses http for production keys but not for sandbox keys', async () => {
      assert.equal((await register('production key', 'http://public.example.com/h')).status, 422);
      assert.equal((await register('sandbox key', 'http://public.example.com/h')).status, 201);
    });

    it('refuses the same addresses when a webhook is changed to them', async () => {
      const created = await json(await register('sandbox key', 'https://public.example.com/hook'));
      for (const url of ['https://169.254.169.254/', 'https://10.0.0.1/', 'http://127.0.0.1:9/']) {
        const response = await production.call('PATCH', `/v1/webhooks/${created['webhook_id']}`, {
          key: production.tenant.sandboxKey,
          body: { url },
        });
        assert.equal(response.status, 422, url);
        assert.equal((await json(response))['code'], 'webhook_url_not_allowed');
      }
    });

    /**
     * Delivery time, with the real Node sender: the stored URL is set directly (as if registered before
     * the rules or the DNS changed), then `POST /v1/webhooks/:id/test` sends through it.
     */
    async function testDelivery(
      h: TestHarness,
      key: string,
      url: string,
    ): Promise<{ result: Record<string, any>; connected: boolean; errorClass: string | null }> {
      const created = await json(
        await h.call('POST', '/v1/webhooks', {
          key,
          body: { url: 'https://public.example.com/x', events: ['*'] },
        }),
      );
      await h.deps.db.query('update webhooks set url = $2 where id = $1', [created['webhook_id'], url]);
      const before = receiver.connections;
      const response = await h.call('POST', `/v1/webhooks/${created['webhook_id']}/test`, { key });
      assert.equal(response.status, 200);
      const result = await json(response);
      const log = await json(
        await h.call('GET', `/v1/webhooks/${created['webhook_id']}/deliveries`, { key }),
      );
      return {
        result,
        connected: receiver.connections > before,
        errorClass: log['data'][0]?.['attempts'][0]?.['error_class'] ?? null,
      };
    }

    const at = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;
    const named = (name: string, path: string) => `http://${name}:${receiver.port}${path}`;

    for (const [label, column, url, expected] of [
      ['loopback, sandbox key', 'sandbox key', () => at('/a'), 'refused'],
      [
        'loopback, sandbox key, loopback allowed',
        'sandbox key, loopback allowed',
        () => at('/b'),
        'delivered',
      ],
      ['loopback, production key, loopback allowed', 'production key', () => at('/c'), 'refused'],
      ['private, loopback allowed', 'sandbox key, loopback allowed', () => 'http://10.0.0.1:9/', 'refused'],
      [
        'metadata, loopback allowed',
        'sandbox key, loopback allowed',
        () => 'http://169.254.169.254/',
        'refused',
      ],
      [
        'IPv6 metadata, loopback allowed',
        'sandbox key, loopback allowed',
        () => 'http://[fd00:ec2::254]/',
        'refused',
      ],
      [
        'a name now resolving to a private address',
        'sandbox key, loopback allowed',
        () => named('private.example.com', '/d'),
        'refused',
      ],
      [
        'a name resolving to loopback, allowed',
        'sandbox key, loopback allowed',
        () => named('loopback.example.com', '/e'),
        'delivered',
      ],
    ] as const) {
      it(`at delivery on a production server: ${label} is ${expected}`, async () => {
        const allowLoopback = column === 'sandbox key, loopback allowed';
        production.deps.webhookSender = nodeWebhookSender({ resolve: fakeDns(dns), allowLoopback });
        const key =
          column === 'production key' ? production.tenant.productionKey : production.tenant.sandboxKey;
        const outcome = await testDelivery(production, key, url());
        if (expected === 'delivered') {
          assert.equal(outcome.connected, true);
          assert.deepEqual(
            { delivered: outcome.result['delivered'], status_class: outcome.result['status_class'] },
            { delivered: true, status_class: '2xx' },
          );
        } else {
          assert.equal(outcome.connected, false, 'no connection was even opened');
          assert.equal(outcome.errorClass, 'address_not_allowed');
          assert.deepEqual(
            { delivered: outcome.result['delivered'], status_class: outcome.result['status_class'] },
            { delivered: false, status_class: null },
          );
        }
      });
    }

    it('refuses at delivery a name that resolved publicly at create and to loopback now (DNS rebinding)', async () => {
      production.deps.webhookSender = nodeWebhookSender({ resolve: fakeDns(dns) });
      const created = await register('sandbox key', `http://rebind.example.com:${receiver.port}/hook`);
      assert.equal(created.status, 201, 'accepted while it resolved to a public address');
      dns['rebind.example.com'] = ['127.0.0.1'];
      const id = (await json(created))['webhook_id'];
      const before = receiver.connections;
      const result = await json(
        await production.call('POST', `/v1/webhooks/${id}/test`, { key: production.tenant.sandboxKey }),
      );
      assert.equal(receiver.connections, before, 'no connection was even opened');
      assert.equal(result['delivered'], false);
    });

    it('a development server refuses at delivery a name that resolves to a metadata address', async () => {
      const outcome = await testDelivery(
        development,
        development.tenant.sandboxKey,
        named('metadata.example.com', '/m'),
      );
      assert.equal(outcome.connected, false);
      assert.equal(outcome.errorClass, 'address_not_allowed');
      const local = await testDelivery(development, development.tenant.sandboxKey, at('/local'));
      assert.equal(local.connected, true, 'loopback stays open to a developer');
    });

    it('the test endpoint tells only delivered or not and the status class: no status, error or timing', async () => {
      receiver.respond((_request, _index, response) => response.writeHead(418).end('secret body'));
      try {
        production.deps.webhookSender = nodeWebhookSender({ resolve: fakeDns(dns), allowLoopback: true });
        const answered = await testDelivery(production, production.tenant.sandboxKey, at('/teapot'));
        assert.deepEqual(Object.keys(answered.result).sort(), [
          'delivered',
          'delivery_id',
          'event_id',
          'object',
          'status_class',
        ]);
        assert.equal(answered.result['delivered'], false);
        assert.equal(answered.result['status_class'], '4xx');
        // Nothing listens on port 9 (discard): a refused connection looks exactly like any other failure.
        const refused = await testDelivery(production, production.tenant.sandboxKey, 'http://127.0.0.1:9/');
        assert.deepEqual(
          { delivered: refused.result['delivered'], status_class: refused.result['status_class'] },
          { delivered: false, status_class: null },
        );
        assert.doesNotMatch(JSON.stringify(refused.result), /refused|ECONN|timeout|duration/i);
      } finally {
        receiver.respond((_request, _index, response) => response.writeHead(200).end('ok'));
      }
    });
  });
}
