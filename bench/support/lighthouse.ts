/**
 * What the Lighthouse benches share (bench/widget/lighthouse.ts for the hosted page,
 * bench/console/lighthouse.ts for the console): the machine's Chromium started through Lighthouse's own
 * chrome-launcher, a `--runs=N` argument, retried audits, and one printed report per run of the scores
 * against their targets, the main metrics and every audit that cost points.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';

export type Targets = Record<string, number>;

/** The puppeteer page Lighthouse accepts to audit a tab prepared beforehand. */
export type LighthousePage = NonNullable<Parameters<typeof lighthouse>[3]>;

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

export interface LaunchedChrome {
  port: number;
  kill(): void | Promise<void>;
}
type Launch = (options: { chromePath: string; chromeFlags: string[] }) => Promise<LaunchedChrome>;

/** A package as Lighthouse itself resolves it (another, older chrome-launcher sits at the top level). */
async function fromLighthouse<T>(name: string): Promise<T> {
  const require = createRequire(fileURLToPath(import.meta.resolve('lighthouse')));
  return (await import(pathToFileURL(require.resolve(name)).href)) as T;
}

/** chrome-launcher's `launch`, the one Lighthouse depends on. */
export async function chromeLauncher(): Promise<Launch> {
  return (await fromLighthouse<{ launch: Launch }>('chrome-launcher')).launch;
}

/** puppeteer-core's `connect`, the one Lighthouse drives pages with. */
export async function puppeteerConnect(): Promise<
  (options: { browserURL: string; defaultViewport: null }) => Promise<{
    newPage(): Promise<LighthousePage>;
    disconnect(): Promise<void>;
  }>
> {
  const module = await fromLighthouse<{ default: { connect: never } }>('puppeteer-core');
  return module.default.connect;
}

/** `--runs=N` (1–9, default 3: the median of three, as Lighthouse's docs advise). */
export function runsArgument(): number {
  const value = process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length);
  const runs = value === undefined ? 3 : Number(value);
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error('--runs must be an integer 1–9');
  return runs;
}

export function score(lhr: Result, category: string): number | null {
  const value = lhr.categories[category]?.score;
  return typeof value === 'number' ? Math.round(value * 100) : null;
}

interface ConsoleItem {
  source?: string;
  description?: string;
  sourceLocation?: { url?: string };
}

/**
 * Prints one run: the scores against `targets`, the main metrics, every audit below 0.9 that counts, and
 * the browser console's errors. `redact` cleans URLs that hold a credential before they are printed.
 */
export function report(lhr: Result, targets: Targets, redact: (text: string) => string = (t) => t): void {
  console.log(`\nLighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor} settings`);
  console.log(`page: ${redact(new URL(lhr.finalDisplayedUrl).pathname)}\n`);
  for (const [category, target] of Object.entries(targets)) {
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
  const lost = Object.keys(targets).flatMap((category) =>
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
      `  console ${item.source ?? ''}: ${item.description ?? ''} ${redact(item.sourceLocation?.url ?? '')}`,
    );
  }
}

/** Trace failures Lighthouse itself says to retry ("Please run Lighthouse again"). */
const RETRYABLE = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP', 'NO_TRACING_STARTED']);

/** One Lighthouse navigation of `url` (in `page` when given), run again on a retryable trace failure. */
export async function auditOnce(
  url: string,
  flags: Flags,
  config?: Config,
  page?: LighthousePage,
): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, config, page);
    if (!result) throw new Error('Lighthouse returned no result');
    const error = result.lhr.runtimeError;
    if (!error) return result.lhr;
    if (!RETRYABLE.has(error.code) || attempt === 3) throw new Error(`Lighthouse: ${error.message}`);
    console.log(`(Lighthouse ${error.code}, running again)`);
  }
}

/** The run with the median performance score, as Lighthouse's docs advise for several runs. */
export function medianRun(results: Result[]): Result | undefined {
  const sorted = [...results].sort((a, b) => (score(a, 'performance') ?? 0) - (score(b, 'performance') ?? 0));
  return sorted[Math.floor(sorted.length / 2)];
}
