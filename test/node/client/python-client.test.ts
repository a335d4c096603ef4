import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { type Listening, listen } from './support/listen.ts';

const CLIENT_DIR = fileURLToPath(new URL('../../../clients/python/', import.meta.url));
const PYTHON = process.env['IDV_PYTHON'] ?? 'python3';

function pythonVersion(): string | undefined {
  const probe = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? (probe.stdout || probe.stderr).trim() : undefined;
}

/** Runs the command without blocking this process's event loop: the server under test lives in it. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, args, { cwd: CLIENT_DIR, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const version = pythonVersion();

describe('id-verify for Python against a real server', {
  skip: version ? false : `no ${PYTHON} on PATH`,
}, () => {
  let h: TestHarness;
  let server: Listening;
  before(async () => {
    h = await createHarness('pglite');
    server = await listen((request) => h.app.fetch(request));
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it(`passes its unittest suite (${version}), none skipped`, async () => {
    const { code, output } = await run(['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], {
      IDV_TEST_BASE_URL: server.url,
      IDV_TEST_API_KEY: h.tenant.sandboxKey,
      IDV_TEST_REQUIRE_SERVER: '1',
      PYTHONDONTWRITEBYTECODE: '1',
    });
    assert.equal(code, 0, output);
    assert.match(output, /^OK$/m, output);
    assert.doesNotMatch(output, /skipped/, output);
    // The cases the issue asks for ran.
    for (const name of [
      'test_create_get_and_walk_the_list_across_pages',
      'test_a_repeated_create_with_one_idempotency_key_answers_the_same_session',
      'test_an_invalid_parameter_raises_the_typed_error_with_the_problem',
      'test_a_429_is_retried_after_its_retry_after_with_the_same_key',
      'test_a_real_test_delivery_verifies_and_its_replay_without_webhook_headers_is_refused',
    ]) {
      assert.match(output, new RegExp(`${name} .* ok$`, 'm'), `${name} did not pass:\n${output}`);
    }
  });
});
