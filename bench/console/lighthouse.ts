/**
 * Lighthouse on a console page (`npm run bench:lighthouse:console`, after `npm run build` or
 * `npm run build:console`; not part of `npm test`): the sessions list by default, the review workbench with
 * `--page=/console/reviews`, opened as a logged-in tab of a seeded tenant (console-bench.ts) and audited
 * with Lighthouse's default mobile settings (Moto G-class screen, simulated slow 4G, 4× CPU slowdown) and
 * its desktop settings, in the machine's Chromium.
 *
 * Prints, per form factor, the performance / accessibility / best-practices scores against the issues'
 * targets (sessions ≥ 90, reviews ≥ 95; 100; 100), the main metrics and every audit that cost points. A
 * bench, not a test: it asserts nothing. `--runs=N` loads the page N times per form factor and reports the
 * median run; `--json=PREFIX` also writes each median report to PREFIX-mobile.json / PREFIX-desktop.json.
 *
 * @example
 *   npm run build:console && node bench/console/lighthouse.ts --runs=3 [--page=/console/reviews]
 */
import { writeFileSync } from 'node:fs';
import { type Config, desktopConfig, type Flags, type Result } from 'lighthouse';
import {
  auditOnce,
  type LighthousePage,
  medianRun,
  report,
  runsArgument,
  score,
} from '../support/lighthouse.ts';
import { startConsoleBench } from './console-bench.ts';

/**
 * The pages this bench can audit: the screen that shows, the read that proves the user was logged in,
 * and the performance score its issue asks for (accessibility and best practices: 100 everywhere).
 */
const PAGES: Record<string, { screen: string; read: RegExp; performance: number }> = {
  '/console/sessions': { screen: 'idv-sessions-screen', read: /\/v1\/sessions\?/, performance: 90 },
  // Issue 25: the review workbench ≥ 95 / 100 / 100.
  '/console/reviews': { screen: 'idv-review-screen', read: /\/v1\/review-queue/, performance: 95 },
};
/** `--page=/console/reviews` audits the review workbench; the sessions list by default. */
const PAGE =
  process.argv.find((arg) => arg.startsWith('--page='))?.slice('--page='.length) ?? '/console/sessions';
const AUDITED =
  PAGES[PAGE] ??
  (() => {
    throw new Error(`--page must be one of ${Object.keys(PAGES).join(', ')}`);
  })();

const TARGETS: Record<string, number> = {
  performance: AUDITED.performance,
  accessibility: 100,
  'best-practices': 100,
};

/**
 * Whether the audited load was the logged-in sessions page: it read `GET /v1/sessions` successfully. A
 * console without a valid token shows the login instead, and its scores would say nothing about this page.
 */
function auditedLoggedIn(lhr: Result): boolean {
  const items =
    (lhr.audits['network-requests']?.details as { items?: Array<{ url?: string; statusCode?: number }> })
      ?.items ?? [];
  return items.some((item) => AUDITED.read.test(item.url ?? '') && item.statusCode === 200);
}

/** `--json=PREFIX` also writes each form factor's full report to PREFIX-mobile.json / PREFIX-desktop.json. */
const JSON_PREFIX = process.argv.find((arg) => arg.startsWith('--json='))?.slice('--json='.length);

function print(lhr: Result | undefined): void {
  if (!lhr) return;
  report(lhr, TARGETS);
  if (JSON_PREFIX) {
    const file = `${JSON_PREFIX}-${lhr.configSettings.formFactor}.json`;
    writeFileSync(file, JSON.stringify(lhr));
    console.log(`\nfull report: ${file}`);
  }
  if (!auditedLoggedIn(lhr)) {
    console.log('\nINCONCLUSIVE: the audited page never read its list (not logged in?)');
    process.exitCode = 1;
  }
}

async function auditFormFactor(
  newPage: () => Promise<LighthousePage>,
  url: string,
  sign: (page: LighthousePage) => Promise<unknown>,
  config: Config | undefined,
  flags: Flags,
  runs: number,
): Promise<Result | undefined> {
  const results: Result[] = [];
  for (let run = 1; run <= runs; run++) {
    // A fresh tab per run: sessionStorage is per tab, and Lighthouse clears the origin's other storage
    // and the HTTP cache itself, so every run is a first visit of a logged-in user.
    const page = await newPage();
    try {
      await sign(page);
      const lhr = await auditOnce(url, flags, config, page);
      results.push(lhr);
      if (runs > 1) console.log(`run ${run}: performance ${score(lhr, 'performance')}`);
    } finally {
      await page.close();
    }
  }
  return medianRun(results);
}

async function main(): Promise<void> {
  const runs = runsArgument();
  const bench = await startConsoleBench();
  try {
    const { sign } = bench;
    const url = `${bench.server.baseUrl}${PAGE}`;

    // The server reads each built file from disk once, then serves it from memory (node-console-assets.ts):
    // one load first, so the audits measure a server that has been up a while, not a cold disk read.
    const warm = await bench.newPage();
    await sign(warm);
    await warm.goto(url, { waitUntil: 'networkidle0' });
    const shown = await warm.evaluate(
      (tag) => document.querySelector('idv-console')?.shadowRoot?.querySelector(tag) != null,
      AUDITED.screen,
    );
    await warm.close();
    if (!shown) throw new Error(`the console did not open ${PAGE} for the logged-in user`);

    const flags: Flags = {
      output: 'json',
      logLevel: (process.env.LH_LOG ?? 'error') as Flags['logLevel'],
      onlyCategories: Object.keys(TARGETS),
    };
    const newPage = () => bench.newPage();
    const mobile = await auditFormFactor(newPage, url, sign, undefined, flags, runs);
    print(mobile);
    const desktop = await auditFormFactor(newPage, url, sign, desktopConfig, flags, runs);
    print(desktop);
  } finally {
    await bench.close();
  }
}

await main();
