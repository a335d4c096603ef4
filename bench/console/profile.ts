/**
 * Where a console page's main-thread time goes as it loads (after `npm run build:console`; not part of
 * `npm test`): the same logged-in tab of a seeded tenant as the Lighthouse bench (console-bench.ts), loaded
 * with the CPU slowed as Lighthouse's mobile run simulates it (4×), a V8 CPU profile and the browser's long
 * tasks recorded until the page is quiet. Prints the long tasks (start and duration, in real milliseconds
 * of the slowed CPU) and the functions with the most self time, with their script and line.
 *
 * Lighthouse says which script a long task belongs to (`long-tasks`, `bootup-time`); this says which
 * functions. Build with `npx vite build --mode console --minify false` for readable function names.
 *
 * @example
 *   npm run build:console && node bench/console/profile.ts [--page=/console/reviews] [--top=40] [--slowdown=4]
 */
import { startConsoleBench } from './console-bench.ts';

const argument = (name: string): string | undefined =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

const PAGE = argument('page') ?? '/console/reviews';
const TOP = Number(argument('top') ?? 40);
const SLOWDOWN = Number(argument('slowdown') ?? 4);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** In the page, before any script: keeps the long tasks the browser reports. */
function observeLongTasks(): void {
  const tasks: Array<{ at: number; duration: number }> = [];
  (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      tasks.push({ at: Math.round(entry.startTime), duration: Math.round(entry.duration) });
  }).observe({ type: 'longtask', buffered: true });
}

async function main(): Promise<void> {
  const bench = await startConsoleBench();
  try {
    const page = await bench.newPage();
    await bench.sign(page);
    await page.evaluateOnNewDocument(observeLongTasks);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${bench.server.baseUrl}${PAGE}`, { waitUntil: 'networkidle0' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const tasks = await page.evaluate(
      () => (window as unknown as { __longTasks: Array<{ at: number; duration: number }> }).__longTasks,
    );
    console.log(`${PAGE}, CPU ${SLOWDOWN}× slower: long tasks (start ms, duration ms)`);
    for (const task of tasks) console.log(`  ${task.at}\t${task.duration}`);
    const blocking = tasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
    const longest = Math.max(0, ...tasks.map((task) => task.duration));
    console.log(`blocking time (sum over 50 ms) ${blocking} ms, longest task ${longest} ms`);

    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const totals = new Map<string, number>();
    for (const [id, ms] of self) {
      const frame = byId.get(id)?.callFrame;
      if (!frame) continue;
      const file = frame.url.split('/').pop() || '(native)';
      const key = `${frame.functionName || '(anonymous)'}  ${file}:${frame.lineNumber + 1}`;
      totals.set(key, (totals.get(key) ?? 0) + ms);
    }
    console.log(`\nself time, top ${TOP} (ms)`);
    for (const [key, ms] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`  ${ms.toFixed(1).padStart(8)}  ${key}`);
    await page.close();
  } finally {
    await bench.close();
  }
}

await main();
