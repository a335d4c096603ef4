/**
 * Widget bench (`npm run bench:widget`, after `npm run build`):
 * 1. gzip size of every built file under src/dist/sdk and server/dist/web/hosted, and the script-tag budget total;
 * 2. median ms of the on-device quality analysis (draw a 1280×720 frame downscaled, read it back,
 *    score it) in headless Chromium, the browser the widget targets (target ≤ 4 ms).
 *
 * Chromium comes from CHROME_PATH or the usual paths (test/support-server/chromium.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';
import { build } from 'vite';
import { CHROMIUM_FLAGS, findChromium } from '../../test/support-server/chromium.ts';

const root = resolve(import.meta.dirname, '../..');
/** The script-tag bundle (the `id-verify` package) and the hosted page (@id-verify/server). */
const BUILT = [join(root, 'src/dist/sdk'), join(root, 'server/dist/web/hosted')];

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function sizes(): void {
  const built = BUILT.flatMap(files).filter((f) => /\.(js|css|html)$/.test(f));
  if (built.length === 0) throw new Error('nothing built: run `npm run build` first');
  console.log('file'.padEnd(52), 'bytes'.padStart(9), 'gzip'.padStart(9));
  for (const file of built.sort()) {
    const bytes = readFileSync(file);
    console.log(
      relative(root, file).padEnd(52),
      String(bytes.length).padStart(9),
      String(gzipSync(bytes, { level: 9 }).length).padStart(9),
    );
  }
  const entry = join(root, 'src/dist/sdk/id-verify.js');
  if (existsSync(entry)) {
    const kb = gzipSync(readFileSync(entry), { level: 9 }).length / 1024;
    console.log(`\nscript tag before liveness: ${kb.toFixed(1)} KB gzip (budget 40 KB)`);
  }
}

/** Bundles the analysis code for the page (the same module the widget ships). */
async function analysisBundle(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      lib: {
        entry: join(root, 'src/capture/frame-quality.ts'),
        formats: ['iife'],
        name: 'FQ',
        fileName: () => 'fq.js',
      },
    },
  });
  const output = Array.isArray(result) ? result[0] : result;
  const chunk = output && 'output' in output ? output.output[0] : null;
  if (chunk?.type !== 'chunk') throw new Error('analysis bundle failed');
  return chunk.code;
}

async function analysisTiming(): Promise<void> {
  const browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: await analysisBundle() });
    const result = await page.evaluate(() => {
      const { analyzeFrame, ANALYSIS_WIDTH } = (
        window as unknown as { FQ: typeof import('../../src/capture/frame-quality.ts') }
      ).FQ;
      // A 1280×720 source with card-like structure, as the camera delivers it.
      const source = document.createElement('canvas');
      source.width = 1280;
      source.height = 720;
      const s = source.getContext('2d') as CanvasRenderingContext2D;
      s.fillStyle = '#5a6470';
      s.fillRect(0, 0, 1280, 720);
      s.fillStyle = '#e6e2da';
      s.fillRect(240, 107, 800, 505);
      s.fillStyle = '#222';
      for (let i = 0; i < 8; i++) s.fillRect(520, 205 + i * 40, 300 + ((i * 53) % 120), 16);
      const width = ANALYSIS_WIDTH;
      const height = Math.round((720 / 1280) * width);
      const small = document.createElement('canvas');
      small.width = width;
      small.height = height;
      const ctx = small.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
      const times: number[] = [];
      for (let i = 0; i < 220; i++) {
        const t0 = performance.now();
        ctx.drawImage(source, 0, 0, width, height);
        analyzeFrame(ctx.getImageData(0, 0, width, height).data, width, height);
        if (i >= 20) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return {
        median: times[Math.floor(times.length / 2)] ?? 0,
        p95: times[Math.floor(times.length * 0.95)] ?? 0,
      };
    });
    console.log(
      `\nquality analysis per 1280×720 frame (downscale + read + score), Chromium: median ${result.median.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms (target ≤ 4 ms)`,
    );
  } finally {
    await browser.close();
  }
}

sizes();
await analysisTiming();
