import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type InstalledPackage, installPackedClient } from './support/installed-package.ts';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
// TypeScript 7 (the repository's) removed `moduleResolution: node10`; a tenant still on it runs TypeScript
// 5. The one the custom-elements analyzer depends on (locked at 5.4) checks that case: installing a second
// `typescript` as a root devDependency would fight the first over `node_modules/.bin/tsc`.
const TYPESCRIPT_5_TSC = createRequire(
  join(REPOSITORY, 'node_modules/@custom-elements-manifest/analyzer/package.json'),
).resolve('typescript/bin/tsc');

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

  it('declares main and types beside exports, and engines from Node 22.12 (require of an ES module unflagged)', () => {
    const manifest = JSON.parse(
      readFileSync(join(installed.project, 'node_modules/@id-verify/node/package.json'), 'utf8'),
    ) as { main?: string; types?: string; engines?: { node?: string } };
    assert.equal(manifest.main, './dist/index.js');
    assert.equal(manifest.types, './dist/index.d.ts');
    assert.equal(manifest.engines?.node, '>=22.12');
  });

  it('is required from CommonJS', () => {
    const smoke = join(installed.project, 'smoke.cjs');
    writeFileSync(
      smoke,
      `const { createIdVerifyClient, IdVerifyError } = require('@id-verify/node');
console.log(JSON.stringify({ client: typeof createIdVerifyClient, error: typeof IdVerifyError }));
`,
    );
    const out = JSON.parse(
      execFileSync(process.execPath, [smoke], { cwd: installed.project, encoding: 'utf8' }),
    );
    assert.deepEqual(out, { client: 'function', error: 'function' });
  });

  it('type-checks a strict TypeScript 5 project on moduleResolution node10 (which TypeScript 7 removed)', () => {
    const dir = join(installed.project, 'node10');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(
      join(dir, 'backend.ts'),
      `import { createIdVerifyClient, IdVerifyError, verifyWebhook } from '@id-verify/node';
export async function status(id: string, apiKey: string): Promise<string | null> {
  const idv = createIdVerifyClient({ apiKey, baseUrl: 'https://idv.example' });
  try {
    return (await idv.sessions.get(id)).status;
  } catch (error) {
    if (error instanceof IdVerifyError && error.status === 404) return null;
    throw error;
  }
}
export const verify: typeof verifyWebhook = verifyWebhook;
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'commonjs',
          moduleResolution: 'node10',
          lib: ['es2023', 'dom'],
          types: ['node'],
          typeRoots: [join(REPOSITORY, 'node_modules', '@types')],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['backend.ts'],
      }),
    );
    const version = spawnSync(process.execPath, [TYPESCRIPT_5_TSC, '--version'], { encoding: 'utf8' });
    assert.match(version.stdout, /^Version 5\./);
    const tsc = spawnSync(process.execPath, [TYPESCRIPT_5_TSC, '-p', dir], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });
});
