// docs/quickstart.md run as printed: its shell blocks (steps 1–5, curl and jq against a real development
// server) and its receiver, in one bash session in a fresh directory, the way a newcomer pastes them. The
// only changes are the addresses: the server's and the receiver's ports are free ones instead of 8080 and
// 4000, and step 4's "repeat step 2 for a new end-user" uses `user_43` as the text says.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { freePort, type ServerProcess, startServerProcess } from '../server/server-process.ts';

const QUICKSTART = readFileSync(
  fileURLToPath(new URL('../../../docs/quickstart.md', import.meta.url)),
  'utf8',
);
const MISSING_TOOLS = ['bash', 'curl', 'jq'].filter(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
);

/** The fenced blocks of `language` in the section that starts at `heading`, in order. */
function blocksOf(heading: string, language: string): string[] {
  const start = QUICKSTART.indexOf(heading);
  assert.ok(start >= 0, `quickstart.md has a "${heading}" section`);
  const end = QUICKSTART.indexOf('\n## ', start + heading.length);
  const section = QUICKSTART.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```', 'g'))].map(
    (match) => match[1] as string,
  );
}

/** Runs a bash script in `cwd`; resolves with what it printed once it exits (its background jobs left). */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // The receiver started in the background keeps the pipes open: the script's own exit decides.
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`bash exited ${code}:\n${output}`)),
    );
  });
}

describe('docs/quickstart.md, steps 1–5 as printed', {
  skip: MISSING_TOOLS.length > 0 && `needs ${MISSING_TOOLS.join(', ')}`,
}, () => {
  let directory: string;
  let server: ServerProcess;
  let receiverPid: number | undefined;

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'idv-quickstart-'));
    server = await startServerProcess({ IDV_DATA_DIR: join(directory, '.idv') }, { startTimeoutMs: 90_000 });
  });

  after(async () => {
    if (receiverPid !== undefined) {
      try {
        process.kill(receiverPid);
      } catch {
        // already gone
      }
    }
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('creates and approves sessions, receives identity.created on a new end-user, and reads the identity', async () => {
    const receiverPort = await freePort();
    const at = (block: string) =>
      block
        .replaceAll('http://localhost:8080', server.baseUrl)
        .replaceAll('localhost:4000', `localhost:${receiverPort}`);
    const [, credentials] = blocksOf('## 1. Clone and start', 'sh');
    const [create] = blocksOf('## 2. Create a session', 'sh');
    const [simulate] = blocksOf('## 3. The end-user', 'sh');
    const [register] = blocksOf('## 4. Receive the webhook', 'sh');
    const [receiver] = blocksOf('## 4. Receive the webhook', 'js');
    const [read] = blocksOf('## 5. Read the result', 'sh');
    for (const block of [credentials, create, simulate, register, receiver, read]) assert.ok(block);
    writeFileSync(join(directory, 'receiver.mjs'), receiver as string);
    const newEndUser = (create as string).replace('"user_42"', '"user_43"');
    assert.notEqual(newEndUser, create, 'step 2 names user_42, which step 4 repeats as user_43');

    const script = [
      at(credentials as string),
      at(create as string),
      at(simulate as string),
      // Step 4 starts the receiver in the background (`node receiver.mjs &`); the test keeps its output
      // and its pid, and gives it the moment to listen that a person pasting the next line would.
      at(register as string).replace(
        'node receiver.mjs &',
        'node receiver.mjs > receiver.out 2>&1 & echo $! > receiver.pid\n' +
          'for i in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done',
      ),
      'echo',
      at(newEndUser),
      at(simulate as string),
      // Deliveries are asynchronous: wait (at most 60 s) for the receiver to print the new identity.
      `for i in $(seq 1 120); do grep -q "identity.created" receiver.out 2>/dev/null && break; sleep 0.5; done`,
      at(read as string),
    ].join('\n');
    const output = await bash(script, directory, { PORT: String(receiverPort) });
    receiverPid = Number(readFileSync(join(directory, 'receiver.pid'), 'utf8'));
    const received = readFileSync(join(directory, 'receiver.out'), 'utf8');

    assert.match(output, /"delivered":\s*true/, `step 4's test delivery reached the receiver:\n${output}`);
    assert.match(received, /event: 'webhook\.test'/);
    for (const event of ['session.created', 'session.approved', 'identity.created']) {
      assert.match(
        received,
        new RegExp(`event: '${event.replace('.', '\\.')}'`),
        `received ${event}:\n${received}`,
      );
    }
    assert.match(output, /"decision": "approved"/, 'step 5 reads the approved result');
    assert.match(output, /"object": "identity"/, 'step 5 reads the identity');
  });
});
