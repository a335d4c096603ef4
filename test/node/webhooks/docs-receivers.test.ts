import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { signedHeaders } from '../../../server/features/webhooks/signature.ts';

// The receivers the docs teach, run as they are printed: each code block is taken out of the markdown,
// so a snippet that drifts back to the untimestamped fallback fails here. Each gets a delivery signed by
// the server's own signer, the same delivery again (a retry, or a replay within the tolerance), and a
// replay with its `webhook-*` headers dropped, which only `x-service-signature` then covers.

const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
const SYSTEM_PYTHON = ['/usr/bin/python3', 'python3'].find(
  (candidate) => spawnSync(candidate, ['--version']).status === 0,
);

/** The first fenced block of `language` after `heading` in a markdown file. */
function codeBlockAfter(file: string, heading: string, language: string): string {
  const markdown = readFileSync(join(DOCS, file), 'utf8');
  const start = markdown.indexOf(heading);
  assert.ok(start >= 0, `${file} has a "${heading}" section`);
  const block = markdown.slice(start).match(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```'));
  assert.ok(block?.[1], `${file} has a ${language} block after "${heading}"`);
  return block[1];
}

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

async function signedDelivery(secret: string): Promise<Delivery> {
  const id = `evt_${randomBytes(8).toString('hex')}`;
  const body = JSON.stringify({
    event: 'session.approved',
    event_id: id,
    created_at: new Date().toISOString(),
    environment: 'sandbox',
    session_id: 'sess_1',
  });
  const headers = await signedHeaders({
    secrets: [secret],
    id,
    timestampSeconds: Math.floor(Date.now() / 1000),
    body,
  });
  return { body, headers: { 'content-type': 'application/json', ...headers } };
}

function withoutWebhookHeaders(delivery: Delivery): Delivery {
  const headers = Object.fromEntries(
    Object.entries(delivery.headers).filter(([name]) => !name.startsWith('webhook-')),
  );
  assert.ok(headers['x-service-signature'], 'the replay still carries a valid x-service-signature');
  return { body: delivery.body, headers };
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('docs/webhooks.md: the Python receiver', () => {
  let directory: string;
  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'idv-python-receiver-'));
  });
  after(() => rmSync(directory, { recursive: true, force: true }));

  it('accepts a signed delivery once, and refuses a replay without the webhook-* headers', async (t) => {
    if (!SYSTEM_PYTHON) return t.skip('no python3 on this machine (apt-get install python3)');
    writeFileSync(join(directory, 'receiver.py'), codeBlockAfter('webhooks.md', '### Python', 'python'));
    // The driver feeds each delivery to the snippet's receive() with one shared set of processed ids.
    writeFileSync(
      join(directory, 'driver.py'),
      [
        'import json, sys',
        'from receiver import receive, verify',
        'cases = json.load(sys.stdin)',
        'processed = set()',
        'print(json.dumps([',
        '    [receive(c["body"].encode(), c["headers"], c["secret"], processed),',
        '     verify(c["body"].encode(), c["headers"], c["secret"])]',
        '    for c in cases]))',
      ].join('\n'),
    );
    const secret = newSecret();
    const delivery = await signedDelivery(secret);
    const cases = [
      { ...delivery, secret },
      { ...delivery, secret },
      { ...withoutWebhookHeaders(delivery), secret },
      { ...withoutWebhookHeaders(await signedDelivery(secret)), secret },
      { body: delivery.body.replace('approved', 'rejected'), headers: delivery.headers, secret },
      { ...delivery, secret: newSecret() },
    ];
    const run = spawnSync(SYSTEM_PYTHON, ['driver.py'], {
      cwd: directory,
      input: JSON.stringify(cases),
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [
      [204, true], // the delivery
      [200, true], // the same webhook-id again: verified, already processed
      [400, false], // the replay stripped of webhook-*: refused though its x-service-signature is valid
      [400, false], // a fresh delivery stripped the same way: no fallback at all
      [400, false], // a tampered body
      [400, false], // another endpoint's secret
    ]);
  });
});

describe('docs/webhooks.md: the openssl check', () => {
  it('says valid for a signed delivery and refuses it without the webhook-* headers', async (t) => {
    if (spawnSync('openssl', ['version']).status !== 0) return t.skip('no openssl on this machine');
    const directory = mkdtempSync(join(tmpdir(), 'idv-openssl-receiver-'));
    t.after(() => rmSync(directory, { recursive: true, force: true }));
    const secret = newSecret();
    const delivery = await signedDelivery(secret);
    writeFileSync(join(directory, 'body.json'), delivery.body);
    const script = codeBlockAfter('webhooks.md', '### Shell (openssl)', 'sh').replace(
      /^SECRET=.*$/m,
      `SECRET='${secret}'`,
    );
    assert.ok(script.includes(`SECRET='${secret}'`), 'the snippet sets SECRET on a line of its own');
    const check = (headers: Record<string, string>) =>
      spawnSync('bash', ['-c', script], {
        cwd: directory,
        encoding: 'utf8',
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          WEBHOOK_ID: headers['webhook-id'] ?? '',
          WEBHOOK_TIMESTAMP: headers['webhook-timestamp'] ?? '',
          WEBHOOK_SIGNATURE: headers['webhook-signature'] ?? '',
        },
      }).stdout;
    assert.equal(check(delivery.headers).trim(), 'valid');
    const replay = check(withoutWebhookHeaders(delivery).headers);
    assert.match(replay, /refuse: unsigned/);
    assert.doesNotMatch(replay, /^valid$/m);
    const stale = check({
      ...delivery.headers,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600),
    });
    assert.match(stale, /refuse: too old/);
  });
});

describe('docs/quickstart.md: the receiver', () => {
  let directory: string;
  let receiver: ChildProcess | undefined;
  let url: string;
  const secret = newSecret();
  const printed: string[] = [];

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'idv-quickstart-receiver-'));
    writeFileSync(join(directory, 'receiver.mjs'), codeBlockAfter('quickstart.md', '## 4. Receive', 'js'));
    const port = await freePort();
    receiver = spawn(process.execPath, ['receiver.mjs'], {
      cwd: directory,
      env: { ...process.env, IDV_WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    receiver.stdout?.on('data', (chunk: Buffer) => printed.push(chunk.toString()));
    url = `http://127.0.0.1:${port}/webhooks`;
    await waitUntilListening(url);
  });
  after(() => {
    receiver?.kill();
    if (existsSync(directory)) rmSync(directory, { recursive: true, force: true });
  });

  const post = async (delivery: Delivery) =>
    (await fetch(url, { method: 'POST', body: delivery.body, headers: delivery.headers })).status;

  it('accepts a signed delivery once, and refuses a replay without the webhook-* headers', async () => {
    const delivery = await signedDelivery(secret);
    assert.equal(await post(delivery), 204);
    assert.equal(await post(delivery), 200, 'the same webhook-id again is not processed twice');
    assert.equal(await post(withoutWebhookHeaders(delivery)), 400);
    assert.equal(await post(withoutWebhookHeaders(await signedDelivery(secret))), 400);
    assert.equal(
      await post({ body: delivery.body.replace('sess_1', 'sess_2'), headers: delivery.headers }),
      400,
    );
    const stale = await signedDelivery(secret);
    const staleHeaders = await signedHeaders({
      secrets: [secret],
      id: stale.headers['webhook-id']!,
      timestampSeconds: Math.floor(Date.now() / 1000) - 301,
      body: stale.body,
    });
    assert.equal(await post({ body: stale.body, headers: staleHeaders }), 400);
    // It printed the one event it processed, and nothing for the refused or repeated ones.
    assert.equal(printed.join('').match(/session\.approved/g)?.length, 1);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitUntilListening(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(url, { method: 'POST', body: '' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`the quickstart receiver never listened on ${url}`);
}
