import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type InstalledPackage, installPackedClient } from './support/installed-package.ts';

describe('@id-verify/node as a tenant installs it', () => {
  let installed: InstalledPackage;
  before(() => {
    installed = installPackedClient();
  });
  after(() => rmSync(dirname(installed.project), { recursive: true, force: true }));

  it('ships compiled JavaScript with declarations and its README, and no TypeScript source', () => {
    const files = installed.tarballFiles;
    for (const file of [
      'package/package.json',
      'package/README.md',
      'package/dist/index.js',
      'package/dist/index.d.ts',
    ])
      assert.ok(files.includes(file), `${file} in ${files.join(', ')}`);
    assert.deepEqual(
      files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
      [],
      'no .ts source: Node does not strip types under node_modules',
    );
  });

  it('runs in a plain Node project: signs and verifies a webhook, and calls the API through its client', () => {
    const smoke = join(installed.project, 'smoke.mjs');
    writeFileSync(
      smoke,
      `import { createIdVerifyClient, signTestWebhook, verifyWebhook, IdVerifyError } from '@id-verify/node';
const secret = 'whsec_' + Buffer.from('a'.repeat(32)).toString('base64');
const body = JSON.stringify({ event: 'session.approved', event_id: 'evt_1', created_at: new Date().toISOString(), environment: 'sandbox', session_id: 'sess_1' });
const signed = signTestWebhook(body, secret);
const event = await verifyWebhook(body, signed.headers, secret);
let refused = false;
try { await verifyWebhook(body.replace('sess_1', 'sess_2'), signed.headers, secret); } catch { refused = true; }
const seen = [];
const client = createIdVerifyClient({
  apiKey: 'sk_sandbox_x',
  baseUrl: 'https://idv.example',
  maxRetries: 0,
  fetch: async (url, init) => {
    seen.push(String(url));
    return new Response(JSON.stringify({ type: 'about:blank', title: 'Not found', status: 404, code: 'not_found', request_id: 'req_1' }), { status: 404, headers: { 'content-type': 'application/problem+json' } });
  },
});
let error;
try { await client.sessions.get('sess_1'); } catch (caught) { error = caught; }
console.log(JSON.stringify({ type: event.event, refused, url: seen[0], isError: error instanceof IdVerifyError, status: error?.status, code: error?.code, request_id: error?.request_id }));
`,
    );
    const out = JSON.parse(
      execFileSync(process.execPath, [smoke], { cwd: installed.project, encoding: 'utf8' }),
    );
    assert.deepEqual(out, {
      type: 'session.approved',
      refused: true,
      url: 'https://idv.example/v1/sessions/sess_1',
      isError: true,
      status: 404,
      code: 'not_found',
      request_id: 'req_1',
    });
  });
});
