import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** Everything the script tag loads before the liveness step, gzipped. */
const BUDGET_BYTES = 28 * 1024;
const root = resolve(import.meta.dirname, '../../..');

/** The entry plus every chunk it imports statically (what the browser fetches before any import()). */
function staticClosure(dir: string, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(dir, file), 'utf8');
  for (const match of code.matchAll(
    /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'`](\.\/[^"'`]+)["'`]/g,
  )) {
    const target = join(file, '..', match[1] ?? '');
    staticClosure(dir, target, seen);
  }
  return seen;
}

describe('script-tag bundle', () => {
  let outDir = '';
  before(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'idv-sdk-'));
    // A fresh build of the current source, so the budget is checked on what would ship.
    await build({
      configFile: join(root, 'vite.config.ts'),
      mode: 'sdk',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  });
  after(() => rmSync(outDir, { recursive: true, force: true }));

  it('stays within 28 KB gzip for everything loaded before liveness', () => {
    const files = [...staticClosure(outDir, 'id-verify.js')];
    const bytes = files.reduce(
      (sum, file) => sum + gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length,
      0,
    );
    console.log(`script-tag bundle: ${files.join(', ')} = ${(bytes / 1024).toFixed(1)} KB gzip`);
    assert.ok(bytes <= BUDGET_BYTES, `${bytes} bytes gzip > budget ${BUDGET_BYTES}`);
  });

  it('is one file: locales, the QR encoder, the liveness step and its face guide are chunks loaded on demand', () => {
    assert.deepEqual([...staticClosure(outDir, 'id-verify.js')], ['id-verify.js']);
    const code = readFileSync(join(outDir, 'id-verify.js'), 'utf8');
    const lazy = [...code.matchAll(/import\(["'`]\.\/chunks\/([a-z-]+)-[\w-]{8}\.js/g)].map((m) => m[1]);
    assert.ok(lazy.includes('ar') && lazy.length >= 12, `lazy chunks: ${lazy.join(', ')}`);
    assert.ok(lazy.includes('liveness-step'), `lazy chunks: ${lazy.join(', ')}`);
    // The face guide loads from the liveness step's chunk, when the selfie check opens.
    const liveness = readdirSync(join(outDir, 'chunks')).find((file) => file.startsWith('liveness-step-'));
    const livenessCode = readFileSync(join(outDir, 'chunks', liveness ?? ''), 'utf8');
    assert.match(livenessCode, /import\(["'`]\.\/face-guide-[\w-]{8}\.js/);
    for (const file of readdirSync(join(outDir, 'chunks'))) {
      const size = gzipSync(readFileSync(join(outDir, 'chunks', file)), { level: 9 }).length;
      console.log(`  chunk ${file}: ${(size / 1024).toFixed(1)} KB gzip`);
    }
  });

  it('bundles no face model: Human is imported from the verify server at run time', () => {
    const guide = readdirSync(join(outDir, 'chunks')).find((file) => file.startsWith('face-guide-'));
    const code = readFileSync(join(outDir, 'chunks', guide ?? ''), 'utf8');
    assert.ok(code.length < 12_000, `face-guide chunk is ${code.length} bytes`);
    assert.match(code, /human\.esm\.js/);
    assert.doesNotMatch(code, /jsdelivr|unpkg|cdn\./);
  });

  it('defines <id-verify> and needs no eval', () => {
    const code = readFileSync(join(outDir, 'id-verify.js'), 'utf8');
    assert.match(code, /["'`]id-verify["'`]/);
    assert.doesNotMatch(code, /\beval\(|new Function\(/);
  });
});
