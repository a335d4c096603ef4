/**
 * The layout shifts of console pages as they load (after `npm run build:console`; not part of `npm test`):
 * the same logged-in tab of a seeded tenant as the Lighthouse bench (console-bench.ts), each page loaded
 * at Lighthouse's desktop (1350 × 940) and mobile (412 × 823) viewports, the browser's `layout-shift`
 * entries gathered until the page is quiet, and per page the cumulative layout shift (the largest session
 * window, as Lighthouse and web-vitals count it) with every shift that made it: when, how much, and which
 * elements moved from where to where (shadow DOM included).
 *
 * Quicker than Lighthouse and not noisy on a busy machine: CLS does not depend on timing as scores do,
 * except when data arrives before or after the first paint. `--runs=N` loads each page N times and
 * prints the worst.
 *
 * @example
 *   npm run build:console && node bench/console/layout-shifts.ts [--runs=3] [--page=/console/reviews ...]
 */
import type { LighthousePage } from '../support/lighthouse.ts';
import { startConsoleBench } from './console-bench.ts';

const DEFAULT_PAGES = ['/console/dashboard', '/console/sessions', '/console/reviews'];
const VIEWPORTS = [
  { name: 'desktop', width: 1350, height: 940, deviceScaleFactor: 1, isMobile: false },
  { name: 'mobile', width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true },
] as const;

interface Shift {
  at: number;
  value: number;
  sources: Array<{ node: string; from: string; to: string }>;
}

/** In the page: starts collecting shifts before any script, with a readable name for each moved node. */
function observeShifts(): void {
  const shifts: Shift[] = [];
  (window as unknown as { __shifts: Shift[] }).__shifts = shifts;
  const name = (node: Node | null): string => {
    if (!node) return '(gone)';
    const parts: string[] = [];
    let current: Node | null = node;
    while (current && parts.length < 4) {
      if (current instanceof Element) {
        const id = current.id ? `#${current.id}` : '';
        const cls = current.classList.length > 0 ? `.${[...current.classList].join('.')}` : '';
        parts.unshift(`${current.localName}${id}${cls}`);
      } else if (current instanceof ShadowRoot) {
        parts.unshift('⟨shadow⟩');
      } else parts.unshift(current.nodeName);
      current = current instanceof ShadowRoot ? current.host : current.parentNode;
    }
    return parts.join(' > ');
  };
  const rect = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}×${r.height}`;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<
      PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
      }
    >) {
      if (entry.hadRecentInput) continue;
      shifts.push({
        at: Math.round(entry.startTime),
        value: entry.value,
        sources: entry.sources.map((s) => ({
          node: name(s.node),
          from: rect(s.previousRect),
          to: rect(s.currentRect),
        })),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** The largest session window: shifts less than 1 s apart, a window at most 5 s long. */
function cumulative(shifts: Shift[]): number {
  let best = 0;
  let sum = 0;
  let start = -Infinity;
  let last = -Infinity;
  for (const shift of shifts) {
    if (shift.at - last > 1000 || shift.at - start > 5000) {
      sum = 0;
      start = shift.at;
    }
    sum += shift.value;
    last = shift.at;
    best = Math.max(best, sum);
  }
  return best;
}

async function measure(
  page: LighthousePage,
  url: string,
  viewport: (typeof VIEWPORTS)[number],
): Promise<{ cls: number; shifts: Shift[] }> {
  await page.setViewport(viewport);
  await page.goto(url, { waitUntil: 'networkidle0' });
  // Late renders after the network went quiet (images decoded, a second render pass).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const shifts = (await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts)) ?? [];
  return { cls: cumulative(shifts), shifts };
}

async function main(): Promise<void> {
  const runsValue = process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length);
  const runs = runsValue ? Number(runsValue) : 1;
  const chosen = process.argv.filter((arg) => arg.startsWith('--page=')).map((arg) => arg.slice(7));
  const pages = chosen.length > 0 ? chosen : DEFAULT_PAGES;
  const bench = await startConsoleBench();
  try {
    for (const path of pages) {
      for (const viewport of VIEWPORTS) {
        let worst: { cls: number; shifts: Shift[] } | null = null;
        for (let run = 0; run < runs; run++) {
          const page = await bench.newPage();
          try {
            await bench.sign(page);
            await page.evaluateOnNewDocument(observeShifts);
            const result = await measure(page, `${bench.server.baseUrl}${path}`, viewport);
            if (!worst || result.cls > worst.cls) worst = result;
          } finally {
            await page.close();
          }
        }
        if (!worst) continue;
        console.log(`\n${path} ${viewport.name}: CLS ${worst.cls.toFixed(3)}`);
        for (const shift of worst.shifts) {
          console.log(`  ${String(shift.at).padStart(5)} ms  ${shift.value.toFixed(4)}`);
          for (const source of shift.sources)
            console.log(`      ${source.node}  ${source.from} → ${source.to}`);
        }
      }
    }
  } finally {
    await bench.close();
  }
}

await main();
