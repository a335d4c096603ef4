/**
 * Lighthouse on the hosted page (`npm run bench:lighthouse`, after `npm run build`; not part of
 * `npm test`): a real server (server/node.ts on a temporary embedded database), a real tier2 sandbox
 * session created with the tenant's key, then Lighthouse's default mobile run (Moto G-class screen,
 * simulated slow 4G and 4× CPU slowdown) of its `verify_url` in the machine's Chromium.
 *
 * Prints the performance / accessibility / best-practices scores against the targets (≥ 95,
 * 100, 100), the main metrics, and every audit that cost points. It loads the page 3 times (`--runs=N`
 * for another count) and reports the run with the median performance score, as Lighthouse's docs advise
 * (single runs vary by several points on a busy machine).
 *
 * Chromium comes from CHROME_PATH or /usr/bin/chromium, driven by chrome-launcher (Lighthouse's own
 * dependency, resolved through it): nothing is downloaded.
 *
 * @example
 *   npm run build && node bench/widget/lighthouse.ts --runs=5
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Flags, Result } from 'lighthouse';
import { CHROMIUM_FLAGS, findChromium } from '../../test/support-server/chromium.ts';
import { startE2eServer } from '../../test/support-server/e2e-server.ts';
import { TenantBackend } from '../../test/support-server/tenant-backend.ts';
import { auditOnce, chromeLauncher, medianRun, report, runsArgument, score } from '../support/lighthouse.ts';

const root = resolve(import.meta.dirname, '../..');

const TARGETS: Record<string, number> = { performance: 95, accessibility: 100, 'best-practices': 100 };

/** Verify tokens are credentials: never printed, even a sandbox one. */
function redactToken(text: string): string {
  return text.replace(/\/verify\/[^/?#\s]+/g, '/verify/<token>');
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'server/dist/web/hosted/index.html'))) {
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
    const median = medianRun(results);
    if (median) report(median, TARGETS, redactToken);
  } finally {
    await chrome.kill();
    await server.close();
  }
}

await main();
