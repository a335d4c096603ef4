/**
 * Lighthouse on the hosted page (`npm run bench:lighthouse`, after `npm run build`; not part of
 * `npm test`): a real server (server/node.ts on a temporary embedded database), a real tier2 sandbox
 * session created with the tenant's key, then Lighthouse's default mobile run (Moto G-class screen,
 * simulated slow 4G and 4× CPU slowdown) of its `verify_url` in the machine's Chromium.
 *
 * Prints the performance / accessibility / best-practices scores against the targets (≥ 95,
 * 100, 100), the main metrics, and every audit that cost points. With `--runs=N` it loads the page N
 * times and reports the run with the median performance score, as Lighthouse's docs advise (single
 * runs vary by several points on a busy machine).
 *
 * Chromium comes from CHROME_PATH or /usr/bin/chromium, driven by chrome-launcher (Lighthouse's own
 * dependency, resolved through it): nothing is downloaded.
 *
 * @example
 *   npm run build && node bench/widget/lighthouse.ts --runs=3
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { CHROMIUM_FLAGS, findChromium } from '../../test/support-server/chromium.ts';
import { startE2eServer } from '../../test/support-server/e2e-server.ts';
import { TenantBackend } from '../../test/support-server/tenant-backend.ts';

const root = resolve(import.meta.dirname, '../..');

const TARGETS: Record<string, number> = { performance: 95, accessibility: 100, 'best-practices': 100 };

const METRICS: Array<[id: string, label: string]> = [
  ['first-contentful-paint', 'First Contentful Paint'],
  ['largest-contentful-paint', 'Largest Contentful Paint'],
  ['total-blocking-time', 'Total Blocking Time'],
  ['cumulative-layout-shift', 'Cumulative Layout Shift'],
  ['speed-index', 'Speed Index'],
  ['interactive', 'Time to Interactive'],
  ['server-response-time', 'Server response time'],
  ['total-byte-weight', 'Total transfer size'],
];

interface LaunchedChrome {
  port: number;
  kill(): void | Promise<void>;
}
type Launch = (options: { chromePath: string; chromeFlags: string[] }) => Promise<LaunchedChrome>;

/** chrome-launcher as Lighthouse itself depends on it (another, older copy sits at the top level). */
async function chromeLauncher(): Promise<Launch> {
  const fromLighthouse = createRequire(fileURLToPath(import.meta.resolve('lighthouse')));
  const module = (await import(pathToFileURL(fromLighthouse.resolve('chrome-launcher')).href)) as {
    launch: Launch;
  };
  return module.launch;
}

function runsArgument(): number {
  const value = process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length);
  const runs = value === undefined ? 1 : Number(value);
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error('--runs must be an integer 1–9');
  return runs;
}

function score(lhr: Result, category: string): number | null {
  const value = lhr.categories[category]?.score;
  return typeof value === 'number' ? Math.round(value * 100) : null;
}

function report(lhr: Result): void {
  console.log(`\nLighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor} settings`);
  console.log(`page: ${redactToken(new URL(lhr.finalDisplayedUrl).pathname)}\n`);
  for (const [category, target] of Object.entries(TARGETS)) {
    const value = score(lhr, category);
    const verdict = value !== null && value >= target ? 'ok' : 'BELOW TARGET';
    console.log(
      `${category.padEnd(16)} ${String(value ?? '—').padStart(3)}  (target ≥ ${target}) ${verdict}`,
    );
  }
  console.log('');
  for (const [id, label] of METRICS) {
    const audit = lhr.audits[id];
    if (audit?.displayValue) console.log(`${label.padEnd(28)} ${audit.displayValue}`);
  }
  // Whatever cost points, so a score below target says what to fix.
  const lost = Object.keys(TARGETS).flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && typeof audit.score === 'number' && audit.score < 0.9)
      .map((audit) => `${category}: ${audit?.id} (${audit?.score}) ${audit?.displayValue ?? ''}`.trim()),
  );
  if (lost.length > 0) console.log(`\naudits below 0.9:\n  ${lost.join('\n  ')}`);
  const consoleErrors = (lhr.audits['errors-in-console']?.details as { items?: ConsoleItem[] } | undefined)
    ?.items;
  for (const item of consoleErrors ?? []) {
    console.log(
      `  console ${item.source ?? ''}: ${item.description ?? ''} ${redactToken(item.sourceLocation?.url ?? '')}`,
    );
  }
}

interface ConsoleItem {
  source?: string;
  description?: string;
  sourceLocation?: { url?: string };
}

/** Verify tokens are credentials: never printed, even a sandbox one. */
function redactToken(text: string): string {
  return text.replace(/\/verify\/[^/?#\s]+/g, '/verify/<token>');
}

/** Trace failures Lighthouse itself says to retry ("Please run Lighthouse again"). */
const RETRYABLE = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP', 'NO_TRACING_STARTED']);

async function auditOnce(url: string, flags: Flags): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags);
    if (!result) throw new Error('Lighthouse returned no result');
    const error = result.lhr.runtimeError;
    if (!error) return result.lhr;
    if (!RETRYABLE.has(error.code) || attempt === 3) throw new Error(`Lighthouse: ${error.message}`);
    console.log(`(Lighthouse ${error.code}, running again)`);
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'dist/hosted/index.html'))) {
    throw new Error('the hosted page is not built: run `npm run build` first');
  }
  const runs = runsArgument();
  const server = await startE2eServer();
  const launch = await chromeLauncher();
  const chrome = await launch({ chromePath: findChromium(), chromeFlags: CHROMIUM_FLAGS });
  try {
    const tenant = new TenantBackend(server.baseUrl, server.sandboxKey);
    const session = await tenant.createSession({ country: 'FRA', flow: 'user', tier: 'tier2' });
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: (process.env.LH_LOG ?? 'error') as Flags['logLevel'],
      onlyCategories: Object.keys(TARGETS),
    };
    // A server that has been up a while has its built files in memory (node-widget-assets.ts caches
    // them on first read): one plain request first, so the run measures that, not a cold disk read.
    await fetch(session.verify_url).then((response) => response.arrayBuffer());
    const results: Result[] = [];
    for (let run = 1; run <= runs; run++) {
      const lhr = await auditOnce(session.verify_url, flags);
      results.push(lhr);
      if (runs > 1) console.log(`run ${run}: performance ${score(lhr, 'performance')}`);
    }
    results.sort((a, b) => (score(a, 'performance') ?? 0) - (score(b, 'performance') ?? 0));
    const median = results[Math.floor(results.length / 2)];
    if (median) report(median);
  } finally {
    await chrome.kill();
    await server.close();
  }
}

await main();
