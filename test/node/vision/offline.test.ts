import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadDocumentManifest } from '../../fixtures/vision/documents/manifest.ts';

const ENGINE = new URL('../../../server/runtime/node/vision/node-vision-engine.ts', import.meta.url).href;
const FIXTURES = new URL('../../fixtures/vision/', import.meta.url).href;
const BILL = 'utility_bill-astronaut.jpg';

/**
 * The child: the whole engine (worker thread, models, OCR, barcode reader) reads a passport, a face and a
 * bill, then tries the network itself to show there was none. Prints one JSON line.
 */
const CHILD = `
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { createNodeVisionEngine } from ${JSON.stringify(ENGINE)};
const fixture = (path) => new Uint8Array(readFileSync(new URL(path, ${JSON.stringify(FIXTURES)})));
const vision = createNodeVisionEngine();
try {
  const passport = await vision.readDocument(fixture('documents/passport-astronaut.jpg'), { documentType: 'passport', side: 'front' });
  const faces = await vision.analyzeFaces(fixture('portraits/astronaut.jpg'), { embeddings: true });
  const bill = await vision.readText(fixture('documents/${BILL}'));
  const fetched = await fetch('https://registry.npmjs.org/').then(() => 'reached', (error) => 'failed: ' + (error.cause?.code ?? error.message));
  const connected = await new Promise((resolve) => {
    try {
      const socket = net.connect({ host: '1.1.1.1', port: 443 });
      socket.once('connect', () => { socket.destroy(); resolve('reached'); });
      socket.once('error', (error) => resolve('failed: ' + (error.code ?? error.message)));
    } catch (error) { resolve('failed: ' + error.message); }
  });
  process.stdout.write(JSON.stringify({
    mrz: passport.mrz?.lines ?? null,
    portraits: passport.faces.faces.length,
    faces: faces.faces.length,
    embedding: faces.faces[0]?.embedding?.length ?? 0,
    billText: bill.text,
    engines: [...passport.engine.models, ...bill.engine.models],
    fetched,
    connected,
  }) + '\\n');
} finally {
  await vision.close();
}
`;

/** Loaded with --import in the child and in every worker thread it starts, when unshare is not allowed. */
const REFUSE_NETWORK = `
import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import { syncBuiltinESMExports } from 'node:module';
const refuse = (what) => () => { throw Object.assign(new Error('network refused by offline.test.ts: ' + what), { code: 'ENETUNREACH' }); };
globalThis.fetch = async (input) => { throw new TypeError('network refused by offline.test.ts: fetch ' + String(input?.url ?? input)); };
net.connect = net.createConnection = refuse('net.connect');
tls.connect = refuse('tls.connect');
dns.lookup = (host, options, callback) => (typeof options === 'function' ? options : callback)(Object.assign(new Error('network refused by offline.test.ts: dns.lookup ' + host), { code: 'ENOTFOUND' }));
dns.promises.lookup = async (host) => { throw Object.assign(new Error('network refused: dns.lookup ' + host), { code: 'ENOTFOUND' }); };
syncBuiltinESMExports();
`;

/** `unshare --net` gives the child a network namespace with no interface up: nothing can get out. */
function canUnshareNetwork(): boolean {
  const probe = spawnSync('unshare', ['--net', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

function runChild(
  script: string,
  isolated: boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, ...args] = isolated
    ? ['unshare', '--net', process.execPath, script]
    : [process.execPath, '--import', `data:text/javascript,${encodeURIComponent(REFUSE_NETWORK)}`, script];
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const isolated = canUnshareNetwork();
const how = isolated
  ? 'in a network namespace with no network (unshare --net)'
  : 'with fetch, net.connect and dns.lookup refused (unshare is not permitted here)';

describe('vision engine offline', () => {
  // A file, not --eval: worker threads inherit the child's flags, and --input-type is refused there.
  const dir = mkdtempSync(join(tmpdir(), 'idv-vision-offline-'));
  const script = join(dir, 'read-offline.mjs');
  writeFileSync(script, CHILD);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`reads a document, a face and a page ${how}`, { timeout: 180_000 }, async (t) => {
    t.diagnostic(isolated ? 'isolation: unshare --net' : 'isolation: network calls refused in-process');
    const { code, stdout, stderr } = await runChild(script, isolated);
    assert.equal(code, 0, `the child failed:\n${stderr}`);
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      mrz: string[] | null;
      portraits: number;
      faces: number;
      embedding: number;
      billText: string;
      engines: string[];
      fetched: string;
      connected: string;
    };
    const { images } = loadDocumentManifest();
    const passport = images.find((image) => image.file === 'passport-astronaut.jpg');
    const bill = images.find((image) => image.file === BILL);
    assert.ok(passport?.mrz_lines && bill?.proof_of_address);
    assert.deepEqual(result.mrz, passport.mrz_lines);
    assert.ok(result.portraits >= 1, 'the passport portrait');
    assert.equal(result.faces, 1);
    assert.equal(result.embedding, 128);
    assert.match(
      result.billText.toUpperCase(),
      new RegExp(bill.proof_of_address.name.last_name.toUpperCase()),
    );
    assert.ok(result.engines.some((name) => name.startsWith('tesseract-eng-4.0.0_best_int')));
    // And the network really was not there for the child itself.
    assert.match(result.fetched, /^failed/);
    assert.match(result.connected, /^failed/);
  });
});
